from polyfit.cli import main

main()
