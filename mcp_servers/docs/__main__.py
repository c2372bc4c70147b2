"""`python -m mcp_servers.docs`: serve the docs over stdio (through a warm host, see `warm`)."""

from mcp_servers.docs.warm import main

if __name__ == "__main__":
    main()
