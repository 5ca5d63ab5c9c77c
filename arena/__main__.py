"""``python -m arena``: serve the arena on this machine and open it in the browser.

Example::

    python -m arena                      # http://127.0.0.1:8765/, opened in the default browser
    python -m arena --port 9000 --no-browser
    python -m arena --host 0.0.0.0       # reachable from other machines: only on a network you trust
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
import threading
import time
import webbrowser
from typing import Optional, Sequence

DEFAULT_PORT = 8765


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m arena", description="Play, analyse and watch k-in-a-row games in "
                                     "a browser, and follow a tuning study: a local web server and its page.")  # fmt: skip
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to the network)")
    parser.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    return parser


def _free(host: str, port: int) -> Optional[str]:
    """None if ``host:port`` can be listened on, else why not (one line)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is in use: give another with --port (0 picks a free one)"
            return f"cannot listen on {host}:{port}: {error.strerror or error}"
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Serve until Ctrl-C; 0 then, 2 on bad arguments or a port that cannot be used."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port} must be from 0 to 65535")
    problem = _free(args.host, args.port)
    if problem:
        parser.error(problem)
    try:
        import uvicorn

        from arena.server import create_app
    except ImportError as error:
        parser.error(f"the arena needs its extra: pip install 'alphabeta-gym[arena]' ({error})")
    app = create_app(host=args.host)
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning"))
    threading.Thread(target=_announce, args=(server, args), daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0


def _announce(server: object, args: argparse.Namespace) -> None:
    """Print the address once the server listens, and open it unless told not to."""
    while not getattr(server, "started", False):
        time.sleep(0.05)
    sockets = [s for srv in getattr(server, "servers", []) for s in srv.sockets]
    port = sockets[0].getsockname()[1] if sockets else args.port
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    print(f"arena: serving on {url} (Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        webbrowser.open(url)


if __name__ == "__main__":
    sys.exit(main())
