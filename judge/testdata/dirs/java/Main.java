// A submission of several files: Main starts the solver of package clocks.
public class Main {
    public static void main(String[] args) {
        clocks.Solve.main(args);
    }
}
