// Does not compile -> CE.
int main( {
