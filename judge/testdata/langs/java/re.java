public class re {
    public static void main(String[] args) { throw new IllegalStateException("broken"); }
}
