/*
 * optjudge-box: the small C helper of package sandbox. See zygote.c for how
 * it is started and spoken to, box.c for one run, root.c for the box's
 * namespaces and root file system.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#ifndef __WALL
#define __WALL 0
#endif

enum { MAXOPS = 128, MAXLIMS = 16, MAXJOINS = 8, MAXFDS = 64 };

/* op is one step of building a root: the kinds b w S F l T P D of box.c's
 * usage. */
struct op {
	char kind;
	const char *a, *b;
};

struct lim {
	int res;
	rlim_t soft, hard;
};

/* config is one run's (or, in the zygote, the template's) options. */
struct config {
	int status_fd;
	int joins[MAXJOINS], njoins;
	struct lim lims[MAXLIMS];
	int nlims;
	const char *dir;
	long uid, gid;
	int dropcaps, ns, mapself, trace, early;
	const char *root, *hostname;
	unsigned long long judge_mntns, zygote_mntns;
	int netns; /* -1: none; -2: joined */
	struct op ops[MAXOPS];
	int nops;
	char **env; /* NULL-terminated */
	char **argv; /* PATH ARGV0 ARGS..., or what followed -- */
	int nargv;
};

extern struct config cfg;

/* A resident spare's park: the cgroup.procs files it moves itself into
 * after a run, out of the run's cgroups, so that the judge can remove them. */
extern int park_fds[MAXJOINS], nparks;

/* box.c */
void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fail(int err, const char *what, const char *arg) __attribute__((noreturn));
void child_fail(int fd, int err, const char *what, const char *arg) __attribute__((noreturn));
long long now_us(void);
void mark(const char *what);
void parse(int argc, char **argv, int run);
void box_prepare(int nops);
int box_run(int from, int resident);
int box_main(int argc, char **argv);

/* root.c */
int in_own_namespaces(void);
void root_begin(void);
void root_ops(int from, int to);
void root_pivot(void);
void root_seal(void);
int root_clean(int to);
void root_mark(int from, int to);
int root_moved(void);
void root_refresh(void);
void build_template(void);
void confine(int errfd);
void map_self(void);
