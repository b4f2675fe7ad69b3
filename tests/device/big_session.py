# One Globex session (2024-03-04 18:00 to 2024-03-05 17:00 New York, -05:00) of N trades, in the format of
# `stackscope-cli sample-data --trades`: a random walk around 5000 in 0.25 steps.
import random, sys
n = int(sys.argv[2])
random.seed(1)
span_us = 23 * 3600 * 1000000
step = span_us // (n + 1)
price = 20000
out = open(sys.argv[1], "w")
out.write("timestamp,price,size\n")
buf = []
t0 = 18 * 3600 * 1000000
for i in range(n):
    t = t0 + (i + 1) * step
    price += random.choice((-1, 0, 0, 1))
    day, rem = divmod(t, 86400 * 1000000)
    h, rem = divmod(rem, 3600 * 1000000)
    m, rem = divmod(rem, 60 * 1000000)
    s, us = divmod(rem, 1000000)
    buf.append("2024-03-%02dT%02d:%02d:%02d.%06d-05:00,%.2f,%d\n" % (4 + day, h, m, s, us, price / 4.0, 1 + i % 7))
    if len(buf) >= 100000:
        out.write("".join(buf)); buf = []
out.write("".join(buf))
