#!/usr/bin/env python3
"""Another job's rendezvous still listening (a previous run's master that never exited): listens on a free TCP port,
IPv4 and IPv6 where it can, writes the port number to FILE, then sleeps until it is killed.
  python3 port_holder.py FILE"""
import socket
import sys
import time

s4 = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s4.bind(("0.0.0.0", 0))
s4.listen(16)
port = s4.getsockname()[1]
try:
    s6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    s6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    s6.bind(("::", port))
    s6.listen(16)
except OSError:
    pass
open(sys.argv[1], "w").write(f"{port}\n")
while True:
    time.sleep(60)
