"""`python -m mcp_servers.docs`: serve the docs over stdio."""

from mcp_servers.docs.server import main

if __name__ == "__main__":
    main()
