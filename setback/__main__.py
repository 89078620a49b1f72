from setback.cli import main

main()
