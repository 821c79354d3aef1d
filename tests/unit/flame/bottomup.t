# bottomup: every stack reversed from its innermost frame (an inverted flame graph), recursion shown
view - 1 shown
90 1 1;10;11;10;11;12
9 1 1;10;11;12
1 1 1;10;13
4 1 1;14;14;14
3 0 11;12
----
all total 107 self 0
  12 total 102 self 0
    11 total 102 self 0
      10 total 99 self 0
        11 total 90 self 0
          10 total 90 self 0
            1 total 90 self 90
        1 total 9 self 9
      [incomplete] total 3 self 3
  14 total 4 self 0
    14 total 4 self 0
      14 total 4 self 0
        1 total 4 self 4
  13 total 1 self 0
    10 total 1 self 0
      1 total 1 self 1
ok
