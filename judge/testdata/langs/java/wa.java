public class wa {
    public static void main(String[] args) { System.out.println("1 2 3"); }
}
