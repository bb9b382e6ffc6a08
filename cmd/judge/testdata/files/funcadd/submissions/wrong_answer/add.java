public class Add { static long add(long a, long b) { return a + b; } }
