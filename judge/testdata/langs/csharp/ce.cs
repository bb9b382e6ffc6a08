class Broken { static void Main() { System.Console.WriteLine(missing); } }
