from kiev_tui.entry import main

main()
