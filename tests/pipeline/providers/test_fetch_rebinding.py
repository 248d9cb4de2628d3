"""The URL fetcher connects to the address it checked (DNS rebinding), keeps the name for the Host
header and TLS, and checks every redirect hop.

The "public" host is a real server on 127.0.0.2, which the test tells the fetcher to treat as public
(`treat_as_public`, never set in production); "this machine" is a server on 127.0.0.1 at the same
port, standing in for the local API. A patched resolver answers the public address on its first
call and 127.0.0.1 on every later one, as a rebinding DNS server does."""

import socket
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from signet_pipeline.errors import FetchError
from signet_pipeline.providers.fetch import fetch_url

PUBLIC, LOCAL = "127.0.0.2", "127.0.0.1"
NAME = "rebind.test"


def _handler(label: str):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path.startswith("/hop"):  # a redirect to another name (which resolves to this machine)
                self.send_response(302)
                self.send_header("location", self.path.split("?to=", 1)[1])
                self.send_header("content-length", "0")
                self.end_headers()
                return
            body = f"{label} page, host {self.headers['host']}".encode()
            self.send_response(200)
            self.send_header("content-type", "text/plain")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


def _serve(address: str, port: int, label: str, tls: ssl.SSLContext | None = None) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer((address, port), _handler(label))
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _pair(tls: ssl.SSLContext | None = None):
    """A public server and a local one on the same port (a URL names one port for both answers)."""
    for _ in range(20):
        public = _serve(PUBLIC, 0, "public", tls)
        try:
            return public, _serve(LOCAL, public.server_address[1], "local secret", tls)
        except OSError:  # the port is taken on 127.0.0.1: try another
            public.shutdown()
            public.server_close()
    raise RuntimeError("no free port pair")


@pytest.fixture
def servers():
    public, local = _pair()
    yield public.server_address[1]
    for server in (public, local):
        server.shutdown()
        server.server_close()


@pytest.fixture
def rebinding(monkeypatch):
    """NAME answers PUBLIC the first time and LOCAL afterwards; other names resolve to LOCAL."""
    real = socket.getaddrinfo
    calls: list[str] = []

    def fake(host, port, *args, **kwargs):
        if isinstance(host, bytes):
            host = host.decode()
        if host not in (NAME, "other.test"):
            return real(host, port, *args, **kwargs)
        calls.append(host)
        address = PUBLIC if host == NAME and calls.count(NAME) == 1 else LOCAL
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port or 0))]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return calls


def test_the_fetch_connects_to_the_address_it_checked(servers, rebinding):
    page = fetch_url(f"http://{NAME}:{servers}/api/status", max_bytes=10_000, treat_as_public=frozenset({PUBLIC}))
    assert page.content == f"public page, host {NAME}:{servers}"  # the name is kept in the Host header
    assert rebinding == [NAME]  # resolved once: nothing asked the resolver again to connect


def test_a_redirect_to_a_local_name_is_refused(servers, rebinding):
    with pytest.raises(FetchError) as refused:
        fetch_url(f"http://{NAME}:{servers}/hop?to=http://other.test:{servers}/api/status", max_bytes=10_000,
                  treat_as_public=frozenset({PUBLIC}))
    assert refused.value.code == "fetch_blocked"
    assert "127.0.0.1" in refused.value.message


def test_a_name_with_any_private_address_is_refused(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, *a, **k: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port or 0)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", port or 0))])
    with pytest.raises(FetchError) as refused:
        fetch_url("http://mixed.test/", max_bytes=10_000)
    assert refused.value.code == "fetch_blocked"


@pytest.fixture
def tls_files(tmp_path):
    """A self-signed certificate for NAME only (not for the address the fetcher connects to)."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", f"/CN={NAME}",
                    "-addext", f"subjectAltName=DNS:{NAME}"], check=True, capture_output=True)
    return key, cert


def test_tls_verifies_the_name_on_the_pinned_connection(tls_files, rebinding, monkeypatch):
    key, cert = tls_files
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    public, local = _pair(tls)
    port = public.server_address[1]
    try:
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # trust the test certificate (httpx reads it)
        page = fetch_url(f"https://{NAME}:{port}/", max_bytes=10_000, treat_as_public=frozenset({PUBLIC}))
        assert page.content == f"public page, host {NAME}:{port}"
        monkeypatch.delenv("SSL_CERT_FILE")  # an untrusted certificate still fails verification
        rebinding.clear()
        with pytest.raises(FetchError) as untrusted:
            fetch_url(f"https://{NAME}:{port}/", max_bytes=10_000, treat_as_public=frozenset({PUBLIC}))
        assert "CERTIFICATE_VERIFY_FAILED" in untrusted.value.message
    finally:
        for server in (public, local):
            server.shutdown()
            server.server_close()
