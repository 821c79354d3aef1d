/* shorten: C++ names with their template arguments left out ("std::map<…>::find"), as hotspot's "Shorten Templates". */
#ifndef TGPROF_SHORTEN_H
#define TGPROF_SHORTEN_H

/*
 * NAME (a demangled name) with the text between each outermost pair of
 * angle brackets replaced by DOTS; the '<' and '>' of operator names
 * (operator<, operator<<=, operator->, operator<=>...) are not brackets.
 * An unbalanced '<' keeps the rest of the name as it is.  Returns a
 * malloc'd string, or NULL when NAME has no template arguments or memory
 * ran out (then NAME serves as it is).
 */
char *shorten_templates(const char *name, const char *dots);

#endif
