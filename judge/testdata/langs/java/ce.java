public class ce {
    public static void main(String[] args) { System.out.println(missing); }
}
