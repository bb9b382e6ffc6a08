class Wrong { static void Main() { System.Console.WriteLine("1 2 3"); } }
