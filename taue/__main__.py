from taue.cli import main

main()
