from kiev_tui.cli import main

main()
