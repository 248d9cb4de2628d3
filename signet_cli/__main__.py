from signet_cli.main import main

raise SystemExit(main())
