#!/usr/bin/env python3
"""pprof-threads.py: a profile.proto's samples (as protoc --decode prints it) added up by thread label.

Usage: pprof-threads.py DECODED
Prints one line a thread: its "thread" label, its "tid" label ("-" without
one) and the first values of its samples added up, sorted by name; and a
line "unlabelled N" for the samples without a thread label (the calls).
"""
import re
import sys


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    strings = [bytes(s, "utf-8").decode("unicode_escape") for s in re.findall(r'^string_table: "(.*)"$', text, re.M)]
    key = {s: i for i, s in reversed(list(enumerate(strings)))}
    sums, plain = {}, 0
    for body in re.findall(r"^sample \{\n(.*?)^\}", text, re.M | re.S):
        value = int(re.findall(r"value: (\d+)", body)[0])
        thread = tid = None
        for lab in re.findall(r"label \{(.*?)\}", body, re.S):
            k = int(re.search(r"key: (\d+)", lab).group(1))
            if k == key["thread"]:
                thread = strings[int(re.search(r"str: (\d+)", lab).group(1))]
            elif k == key["tid"]:
                tid = re.search(r"num: (\d+)", lab).group(1)
        if thread is None:
            plain += value
        else:
            sums[(thread, tid or "-")] = sums.get((thread, tid or "-"), 0) + value
    for (thread, tid), n in sorted(sums.items()):
        print(thread, tid, n)
    print("unlabelled", plain)


if __name__ == "__main__":
    main()
