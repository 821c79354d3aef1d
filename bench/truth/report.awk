# report.awk: tgprof's bench (truth): a printf- and conversion-heavy awk report over bench's log-like text.
{
	n[$2]++
	bytes[substr($3, 1, index($3, "[") - 1)] += $(NF - 1)
	t = $1 + 0
	printf "%s %14.3f %-12s %6d %x %s\n", $2, t / 7, substr($3, 1, index($3, "[") - 1), length($0), $(NF - 1), toupper($4) > "/dev/null"
	line = sprintf("%08.2f|%e|%g|%5.1f%%", $(NF - 1) / 3, t, $(NF - 1) * 1.5, 100 * NR / (NR + 7))
	if ($0 ~ /kernel|nginx/) k++
	w = $5
	gsub(/[aeiou]/, "", w)
	split($0, parts, " ")
	sum += length(line) + length(w) + parts[6] + 0
}
END {
	for (h in n) printf "%s %d %.2f\n", h, n[h], n[h] / NR
	for (p in bytes) printf "%s %.0f\n", p, bytes[p]
	print k, sum
}
