"""The phone's Wi-Fi, between the browser and the test server: a TCP relay the test can cut.

Chromium's own offline switch does not reach service workers, so the browser tests cut the
connection here as bad Wi-Fi does. ``up``: every byte is relayed. ``down``: connections are refused
and the open ones dropped. ``answers_lost``: requests reach the server, but every answer is dropped
(the server has done the work; the phone never hears of it).
"""

from __future__ import annotations

import socket
import threading
from contextlib import suppress

UP, DOWN, ANSWERS_LOST = "up", "down", "answers_lost"


class Wifi:
    def __init__(self, upstream_port: int):
        self.upstream = ("127.0.0.1", upstream_port)
        self.mode = UP
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.answers_dropped = 0
        threading.Thread(target=self.accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def set(self, mode: str) -> None:
        self.mode = mode
        if mode != UP:
            self.drop_all()

    def drop_all(self) -> None:
        with self.lock:
            sockets, self.open = list(self.open), set()
        for sock in sockets:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with suppress(OSError):
                sock.close()

    def close(self) -> None:
        with suppress(OSError):
            self.listener.close()
        self.drop_all()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.mode == DOWN:
                client.close()
                continue
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open |= {client, server}
            threading.Thread(target=self.pump, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self.pump, args=(server, client, True), daemon=True).start()

    def pump(self, source: socket.socket, target: socket.socket, answers: bool) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if answers and self.mode == ANSWERS_LOST:
                    self.answers_dropped += 1
                    break
                if self.mode == DOWN:
                    break
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                with suppress(OSError):
                    sock.close()
            with self.lock:
                self.open -= {source, target}
