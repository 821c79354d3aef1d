# The gmon reader on the files make.py writes: '== ARGS' runs test-gmon ARGS.
== le64
file le64 arcs=2
hist magic lowpc=1000 highpc=1100 bins=128 rate=100 dimen=seconds abbrev=s nonzero=3 sum=65547
arc 1010 -> 1040 count=3
arc ff0 -> 1010 count=4000000000
counts version=1 hist=1 arcs=2 bbs=0 input=3
== --be be64
file be64 arcs=2
hist magic lowpc=1000 highpc=1100 bins=128 rate=100 dimen=seconds abbrev=s nonzero=3 sum=65547
arc 1010 -> 1040 count=3
arc ff0 -> 1010 count=4000000000
counts version=1 hist=1 arcs=2 bbs=0 input=3
== --32 le32
file le32 arcs=2
hist magic lowpc=1000 highpc=1100 bins=128 rate=100 dimen=seconds abbrev=s nonzero=3 sum=65547
arc 1010 -> 1040 count=3
arc ff0 -> 1010 count=4000000000
counts version=1 hist=1 arcs=2 bbs=0 input=3
== bb
file bb arcs=2
hist magic lowpc=1000 highpc=1100 bins=128 rate=100 dimen=seconds abbrev=s nonzero=3 sum=65547
arc 1010 -> 1040 count=3
arc ff0 -> 1010 count=4000000000
bb 1010 count=9
bb 1014 count=12
counts version=1 hist=1 arcs=2 bbs=1 input=7
== v0bad
file v0bad arcs=2
error v0bad: file has unsupported version 3
== badtag
file badtag arcs=0
error badtag: found bad tag 9 at byte 20 (file corrupted?)
== short
file short arcs=0
error short: file too short to be a gmon file
== cut_hist
file cut_hist arcs=0
error cut_hist: unexpected EOF after reading 50 of 128 samples
== cut_arc
file cut_arc arcs=2
hist magic lowpc=1000 highpc=1100 bins=128 rate=100 dimen=seconds abbrev=s nonzero=3 sum=65547
arc 1010 -> 1040 count=3
error cut_arc: unexpected end of file
== arcs_only
file arcs_only arcs=2
arc 1010 -> 1040 count=3
arc ff0 -> 1010 count=4000000000
counts version=1 hist=0 arcs=2 bbs=0 input=2
== bsd64
file bsd64 arcs=7
hist bsd lowpc=2000 highpc=2080 bins=64 rate=0 dimen= abbrev=- nonzero=2 sum=5
arc 2004 -> 2040 count=77
bsd end
counts version=0 hist=1 arcs=1 bbs=0 input=3
== bsd44
file bsd44 arcs=8
bsd44 rate=1000
hist bsd lowpc=2000 highpc=2080 bins=64 rate=0 dimen= abbrev=- nonzero=2 sum=5
arc 2004 -> 2040 count=77
bsd end
counts version=0 hist=1 arcs=1 bbs=0 input=3
== --be --32 bsd32be
file bsd32be arcs=12
hist bsd lowpc=2000 highpc=2080 bins=64 rate=0 dimen= abbrev=- nonzero=2 sum=5
arc 2004 -> 2040 count=77
bsd end
counts version=0 hist=1 arcs=1 bbs=0 input=3
== bsd_cut
file bsd_cut arcs=3
error bsd_cut: unexpected EOF after reading 29/64 bins
== --bsd44 bsd64
file bsd64 arcs=7
error bsd64: file has bad magic cookie
== --magic bsd64
file bsd64 arcs=0
error bsd64: file has bad magic cookie
== le64 bsd64
file le64 arcs=2
hist magic lowpc=1000 highpc=1100 bins=128 rate=100 dimen=seconds abbrev=s nonzero=3 sum=65547
arc 1010 -> 1040 count=3
arc ff0 -> 1010 count=4000000000
counts version=1 hist=1 arcs=2 bbs=0 input=3
file bsd64 arcs=7
hist bsd lowpc=2000 highpc=2080 bins=64 rate=0 dimen= abbrev=- nonzero=2 sum=5
arc 2004 -> 2040 count=77
bsd end
counts version=1 hist=1 arcs=1 bbs=0 input=3
== nosuch
error nosuch: No such file or directory
