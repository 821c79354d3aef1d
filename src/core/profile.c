/* profile: the analysed profile: lookups on it and profile_free() (load.c builds it). */
#include "profile.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "arcs.h"
#include "core.h"
#include "linemap.h"
#include "order.h"
#include "prop.h"
#include "since.h"
#include "input/demangle.h"
#include "util/rsort.h"


/* A narrowed profile: only what it owns (narrow.c), never its root's. */
static void
free_narrowed(struct profile *p)
{
	free(p->sym);
	free(p->arc);
	free(p->cg_order);
	free(p->caller_start);
	free(p->caller_arc);
	free(p->callee_start);
	free(p->callee_arc);
	symspec_release(&p->priv->specs);
	free(p->priv->spec);
	strpool_release(&p->priv->spec_names);
	free(p->priv);
	free(p);
}

/* What a loaded or reloaded profile owns of the analysis: its own tables, its gmon files, their index. */
static void
free_analysis(struct profile *p)
{
	uint32_t i;

	for (i = 0; i < p->nhist; i++) {
		free(p->hist[i].block);
		free(p->hist[i].bin);
		free(p->hist[i].sum);
	}
	free(p->hist);
	free(p->sym);
	free(p->arc);
	free(p->bb);
	free(p->name_order);
	free(p->name_rank);
	free(p->flat_order);
	free(p->cg_order);
	free(p->caller_start);
	free(p->caller_arc);
	free(p->callee_start);
	free(p->callee_arc);
	free(p->gmon);
	if (p->priv == NULL)
		return;
	if (p->priv->since != NULL)	/* a load that failed reading the files */
		since_free(p->priv->since);
	free(p->priv->since);
	arcs_release_index(p);
	prop_release(&p->priv->graph);
	order_plan_release(&p->priv->oplan);
	free(p->priv->group_slot[0]);
	free(p->priv->group_slot[1]);
	free(p->priv->site);
	free(p->priv->site_rec);
	free(p->priv->cyc_member);
	free(p->priv->cyc_member_start);
	for (i = 0; i < p->priv->ngfiles; i++)
		gmon_unload(&p->priv->gfile[i]);
	free(p->priv->gfile);
}

void
profile_free(struct profile *p)
{
	if (p == NULL)
		return;
	if (p->priv != NULL && p->priv->root != NULL) {
		free_narrowed(p);
		return;
	}
	free_analysis(p);
	if (p->priv != NULL && p->priv->image != NULL &&
	    p->priv->spec_syms.ent != p->priv->image->priv->spec_syms.ent)
		symtab_release(&p->priv->spec_syms);	/* made for it: its image kept none */
	if (p->priv != NULL && p->priv->image == NULL) {	/* (a reloaded one borrows the rest) */
		free(p->priv->pristine);
		bin_close(p->priv->bin);
		srcfiles_release(&p->priv->files);
		symspec_release(&p->priv->specs);
		free(p->priv->spec);
		strpool_release(&p->priv->spec_names);
		strpool_release(&p->priv->names);
		mapfile_release(&p->priv->map);
		symindex_release(&p->priv->index);
		free(p->priv->clone_link);
		symtab_release(&p->priv->spec_syms);
		free(p->priv->lines.span);
	}
	free(p->priv);
	free(p);
}

const struct pf_sym *
profile_cycle(const struct profile *p, int k)
{
	return k >= 1 && (uint32_t)k <= p->ncycles ? &p->sym[p->nsyms + (uint32_t)k - 1] : NULL;
}

const uint32_t *
profile_cycle_members(const struct profile *p, uint32_t id, size_t *n)
{
	const struct pf_private *pv = p->priv;
	uint32_t k = id - p->nsyms;

	*n = 0;
	if (id < p->nsyms || k >= p->ncycles || pv->cyc_member_start == NULL)
		return NULL;
	*n = pv->cyc_member_start[k + 1] - pv->cyc_member_start[k];
	return pv->cyc_member + pv->cyc_member_start[k];
}

const char *
profile_file_name(const struct profile *p, uint32_t file)
{
	return file < p->priv->files.n ? p->priv->files.f[file].name : NULL;
}

uint32_t
profile_nfiles(const struct profile *p)
{
	return p->priv->files.n;
}

/*
 * gprof's sym_lookup() on the symbol table.  Its addresses strictly
 * increase, where that binary search finds the last symbol starting at or
 * before ADDR; so does the index.
 */
uint32_t
pf_sym_at(const struct profile *p, uint64_t addr)
{
	uint32_t i = symindex_floor(&p->priv->index, addr);

	return i == UINT32_MAX || addr > p->sym[i].end_addr ? PF_NONE : i;
}

uint32_t
profile_lookup(const struct profile *p, uint64_t addr)
{
	uint32_t i = pf_sym_at(p, addr);

	return i == PF_NONE || p->sym[i].fold == PF_NONE ? i : p->sym[i].fold;
}

char *
profile_demangle(const struct profile *p, const char *name)
{
	return bin_demangle(p->priv->bin, name);
}

int
profile_demangle_into(const struct profile *p, const char *name, struct sbuf *out)
{
	return bin_demangle_into(p->priv->bin, name, out);
}

int
profile_demangle_style(const char *style)
{
	return demangle_set_style(style);
}

int profile_addr_bytes(const struct profile *p) { return p->priv->addr_bytes; }
int profile_big_endian(const struct profile *p) { return p->priv->big_endian; }

const struct mapfile *
profile_map(const struct profile *p)
{
	return &p->priv->map;
}

int
profile_in_exec(const struct profile *p, uint32_t id)
{
	return symspec_chosen(&p->priv->specs, SPEC_INCL_EXEC, p->sym[id].addr);
}

int
profile_in_anno(const struct profile *p, uint32_t id)
{
	return symspec_chosen(&p->priv->specs, SPEC_INCL_ANNO, p->sym[id].addr);
}

struct sort_rec {
	uint64_t key;
	uint32_t id;
};

int
profile_sort_down(uint32_t *ids, const double *key, size_t n)
{
	struct sort_rec *r = mem_array(n + 1, sizeof *r);
	size_t i;

	if (r == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		r[i].key = key[i] != key[i] ? UINT64_MAX : rsort_down_key(key[i]);	/* NaN last */
		r[i].id = ids[i];
	}
	if (rsort_records(r, n, sizeof *r, offsetof(struct sort_rec, key)) != 0) {
		free(r);
		return -1;
	}
	for (i = 0; i < n; i++)
		ids[i] = r[i].id;
	free(r);
	return 0;
}
