function main( { }
