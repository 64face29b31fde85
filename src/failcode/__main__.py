from failcode.cli import main

main()
