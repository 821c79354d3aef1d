/* truth: the program's own time, as it runs without -pg: the profiler's functions and -pg's per-call cost out. */
#include "truth.h"

#include <string.h>

/*
 * The functions of mcount runtimes, whose samples are the cost of
 * profiling: libtgmon names every function that runs while a program is
 * sampled tgmon_*; glibc's are these.
 */
static const char *const runtime_names[] = {
	"mcount", "_mcount", "__mcount_internal", "__fentry__", "monstartup", "__monstartup",
	"moncontrol", "_mcleanup", "profil_counter", "__profil", "__profile_frequency",
	"write_gmon", "__write_profiling"
};

int
truth_is_profiler(const struct profile *p, uint32_t id)
{
	return id < p->nsyms && p->sym[id].profiler;
}

/* NAME, up to a clone's '.' (__mcount_internal.part.0), is one of the runtime's (no '.' in them). */
int
truth_profiler_name(const char *name)
{
	size_t i, n;

	if (name == NULL)
		return 0;
	if (name[0] == 't' && strncmp(name, "tgmon_", 6) == 0)
		return 1;
	for (i = 0; i < sizeof runtime_names / sizeof *runtime_names; i++) {
		if (runtime_names[i][0] != name[0] || runtime_names[i][1] != name[1])
			continue;	/* most names fail here, cheaply (C++'s _Z... too) */
		n = strlen(runtime_names[i]);
		if (strncmp(name, runtime_names[i], n) == 0 && (name[n] == '\0' || name[n] == '.'))
			return 1;
	}
	return 0;
}

uint64_t
truth_calls(const struct profile *p, uint32_t id)
{
	return id < p->nsyms ? p->sym[id].ncalls + p->sym[id].self_calls : 0;
}

double
truth_self(const struct profile *p, uint32_t id, double call_ps, const struct truth_opts *o)
{
	double t, cost;

	if (id >= p->nsyms)
		return 0;
	t = p->sym[id].time;
	if (o->raw || call_ps <= 0 || p->hz <= 0 || truth_is_profiler(p, id))
		return t;
	cost = (double)truth_calls(p, id) * call_ps * 1e-12 * (double)p->hz;
	return t > cost ? t - cost : 0;
}

/* Whether the profiler's time counts under O. */
static int
truth_counts_profiler(const struct truth_opts *o)
{
	return o->raw || o->with_profiler;
}

int
truth_counts(const struct profile *p, uint32_t id, const struct truth_opts *o)
{
	return truth_counts_profiler(o) || !truth_is_profiler(p, id);
}

struct truth_sums
truth_sum(const struct profile *p, double call_ps, const struct truth_opts *o)
{
	struct truth_sums s = { 0, 0, 0 };
	uint32_t id;

	for (id = 0; id < p->nsyms; id++) {
		double t = p->sym[id].time;

		if (t <= 0)
			continue;
		if (truth_is_profiler(p, id))
			s.profiler += t;
		else
			s.calls += t - truth_self(p, id, call_ps, o);
	}
	s.total = p->total_time - s.calls - (truth_counts_profiler(o) ? 0 : s.profiler);
	if (s.total < 0)
		s.total = 0;
	return s;
}
