/* demo: make demo's program: a word index whose costly lookups gprof blames on the wrong caller. */
/*
 * Usage: demo [SCALE]   (1 by default: about a second)
 *
 * It makes a text of pseudo-random words, counts them in a hash table
 * (count_words: many cheap lookups), rebuilds a sorted index of the table
 * a few times (rebuild_index: few lookups, each with a long probe, and
 * qsort in the C library), and prints a report with snprintf.  lookup()
 * is called 800 times as often from count_words() as from
 * rebuild_index(), but most of its time is in rebuild_index()'s calls:
 * gprof, which shares a function's time among its callers by their calls,
 * gives nearly all of it to count_words(); the call stacks that libtgmon
 * records show where it went (the browser's first column, F, t).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORDS 400000
#define TABLE 65536	/* a power of two */

struct entry {
	char word[16];
	unsigned count;
};

static struct entry table[TABLE];
static char text[WORDS][16];
static volatile unsigned long sink;

/* A little generator of repeatable pseudo-random numbers. */
static unsigned long
next(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* WORD's hash: FNV-1a. */
__attribute__((noinline)) static unsigned
hash(const char *word)
{
	unsigned h = 2166136261u;

	for (; *word != '\0'; word++)
		h = (h ^ (unsigned char)*word) * 16777619u;
	return h;
}

/*
 * WORD's entry, made if it is new.  DEPTH extra probes stand for a slow
 * path (a cold cache, a long chain): 0 for the counting, large for the
 * index's consistency checks.
 */
__attribute__((noinline)) static struct entry *
lookup(const char *word, unsigned depth)
{
	unsigned i = hash(word) & (TABLE - 1), k;

	for (k = 0; k < depth; k++)
		sink += table[(i + k * 7919u) & (TABLE - 1)].count;
	while (table[i].word[0] != '\0' && strcmp(table[i].word, word) != 0)
		i = (i + 1) & (TABLE - 1);
	if (table[i].word[0] == '\0')
		strcpy(table[i].word, word);
	return &table[i];
}

__attribute__((noinline)) static void
make_text(unsigned long seed)
{
	static const char *const syll[] = { "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo" };
	int w, k, n;

	for (w = 0; w < WORDS; w++) {
		text[w][0] = '\0';
		n = 1 + (int)(next(&seed) % 5);
		for (k = 0; k < n; k++)
			strcat(text[w], syll[next(&seed) % 8]);
	}
}

/* Many cheap lookups. */
__attribute__((noinline)) static void
count_words(void)
{
	int w;

	for (w = 0; w < WORDS; w++)
		lookup(text[w], 0)->count++;
}

static int
by_count(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;

	return x->count != y->count ? (x->count < y->count) - (x->count > y->count) : strcmp(x->word, y->word);
}

/* A few lookups, each checking much of the table, and a sort in the C library; the number of entries. */
__attribute__((noinline)) static size_t
rebuild_index(struct entry **index)
{
	size_t n = 0, i;

	for (i = 0; i < TABLE; i++)
		if (table[i].word[0] != '\0')
			index[n++] = &table[i];
	for (i = 0; i < n && i < 500; i++)
		lookup(index[i]->word, 40000);
	qsort(index, n, sizeof *index, by_count);
	return n;
}

/* The ten most frequent words among TOTAL counted, formatted by the C library. */
__attribute__((noinline)) static void
report(struct entry **index, size_t n, double total)
{
	char line[64];
	size_t i;

	for (i = 0; i < n && i < 10; i++) {
		snprintf(line, sizeof line, "%8u %s (%.2f%%)", index[i]->count, index[i]->word,
		    100.0 * index[i]->count / total);
		puts(line);
	}
}

int
main(int argc, char **argv)
{
	static struct entry *index[TABLE];
	double scale = argc > 1 ? atof(argv[1]) : 1;
	int rounds = (int)(24 * scale), r;
	size_t n = 0;

	make_text(88172645463325252ul);
	for (r = 0; r < rounds; r++) {
		count_words();
		n = rebuild_index(index);
	}
	report(index, n, (double)WORDS * rounds);
	return 0;
}
