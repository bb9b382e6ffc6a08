/*
 * One run: the supervisor that the zygote forks for every program (ahead of
 * time, as a spare, for most: see zygote.c). It applies
 * the resource limits between fork and exec, so that they hold from the
 * contestant's first instruction, and (in namespace mode) is the PID 1 of the
 * box: it builds the minimal root, starts the contestant, reaps every
 * process, reports the contestant's status and kills whatever is left.
 *
 * Options of a run (every option is its own word; the judge builds them):
 *   -s FD           write the final report to FD
 *   -j FD           write "0" to FD (a cgroup.procs file): join the cgroup
 *                   before the contestant starts
 *   -r RES SOFT HARD  setrlimit(RES) in the child; SOFT/HARD may be "inf"
 *   -d DIR          working directory of the contestant
 *   -E K=V          an environment variable of the contestant
 *   -u UID -g GID   run the contestant as UID/GID, no supplementary groups
 *   -c              drop every capability (user-namespace mode)
 *   -U              map uid and gid 0 to the parent namespace's 0 (a new
 *                   user namespace)
 *   -n              namespace mode: be init, build the root, pivot_root
 *   -M INODE        the judge's mount namespace inode: namespace mode refuses
 *                   to run unless it is PID 1 of a new PID namespace in a
 *                   mount namespace that is neither the judge's nor the
 *                   zygote's
 *   -m DIR          mountpoint of the new root (namespace mode)
 *   -H NAME         hostname (namespace mode)
 *   -N FD           join the network namespace FD (instead of a fresh one) and
 *                   confine the contestant with Landlock scoping, so that
 *                   boxes sharing it cannot reach each other's abstract
 *                   unix sockets
 *   -b SRC DST      read-only bind mount (namespace mode, in order)
 *   -w SRC DST      read-write bind mount
 *   -S SRC DST      bind mount of a template mount, keeping its flags
 *   -F FD DST       attach the detached mount FD (from open_tree)
 *   -e              (a spare) pivot into the root before the request comes:
 *                   the request's mounts are then all -F
 *   -l TARGET DST   symbolic link
 *   -T DST BYTES    tmpfs, mode 1777
 *   -P DST          fresh proc (hidepid=2)
 *   -D DST          minimal /dev (null zero full random urandom, fd links)
 *   -t              trace: write "t MICROSECONDS STEP" lines to the report
 *                   descriptor as the run goes
 *   -- PATH ARGV0 ARGS...
 *
 * The contestant runs with its own process group, the limits, no descriptor
 * above 2, no_new_privs and (on Linux) a small seccomp blocklist.
 *
 * Report, one line on the -s descriptor:
 *   ok exit|signal N UTIME_US STIME_US MAXRSS_KB WALL_US KILLED AGAIN
 *      CHILDREN_UTIME_US CHILDREN_STIME_US SELF_US
 *   err ERRNO WHAT: MESSAGE
 * KILLED is 1 when a signal (the judge's SIGTERM) ended the run early;
 * AGAIN is 1 when the supervisor (a resident spare) waits for another run.
 * The last three are the supervisor's RUSAGE_CHILDREN and RUSAGE_SELF so
 * far, over all its runs: the judge's base for its next.
 * CPU and memory are those of every descendant reaped in this run (summed
 * CPU, the largest resident size), so the supervisor's own setup, and a
 * resident supervisor's earlier runs, are not charged to the contestant.
 */
#include "box.h"

struct config cfg = {.status_fd = -1, .uid = -1, .gid = -1, .netns = -1};
int park_fds[MAXJOINS], nparks;
static int in_group; /* we joined a run's cgroups */

void report(const char *fmt, ...) {
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 1)
		n = sizeof buf - 1;
	if (cfg.status_fd >= 0 && n > 0) {
		ssize_t w = write(cfg.status_fd, buf, n);
		(void)w;
	}
}

/* fail reports a setup error and exits; in namespace mode every process of the
 * box dies with us. */
void fail(int err, const char *what, const char *arg) {
	report("err %d %s %s: %s\n", err, what, arg ? arg : "", strerror(err));
	_exit(125);
}

long long now_us(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void mark(const char *what) {
	if (cfg.trace)
		report("t %lld %s\n", now_us(), what);
}

static long number(const char *s, const char *what) {
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *s == 0 || *end != 0)
		fail(EINVAL, what, s);
	return v;
}

static rlim_t rlim(const char *s) {
	if (strcmp(s, "inf") == 0)
		return RLIM_INFINITY;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *s == 0 || *end != 0)
		fail(EINVAL, "rlimit value", s);
	return (rlim_t)v;
}

/* parse reads the options into cfg, after those read before (ops are
 * appended); a run ends with -- PATH ARGV0 ARGS, and what follows -- is
 * left in cfg.argv in any case. */
void parse(int argc, char **argv, int run) {
	int i = 0, nenv = 0;
	cfg.env = calloc((size_t)argc + 1, sizeof *cfg.env);
	if (!cfg.env)
		fail(ENOMEM, "parse", NULL);
#define NEED(n)                                                               \
	do {                                                                      \
		if (i + (n) >= argc)                                                  \
			fail(EINVAL, "missing argument to", argv[i]);                     \
	} while (0)
	for (; i < argc; i++) {
		const char *o = argv[i];
		if (strcmp(o, "--") == 0) {
			i++;
			break;
		}
		if (o[0] != '-' || o[1] == 0 || o[2] != 0)
			fail(EINVAL, "bad option", o);
		switch (o[1]) {
		case 's': NEED(1); cfg.status_fd = (int)number(argv[++i], "-s"); break;
		case 'j':
			NEED(1);
			if (cfg.njoins == MAXJOINS)
				fail(E2BIG, "too many", o);
			cfg.joins[cfg.njoins++] = (int)number(argv[++i], "-j");
			break;
		case 'r':
			NEED(3);
			if (cfg.nlims == MAXLIMS)
				fail(E2BIG, "too many", o);
			cfg.lims[cfg.nlims].res = (int)number(argv[i + 1], "-r");
			cfg.lims[cfg.nlims].soft = rlim(argv[i + 2]);
			cfg.lims[cfg.nlims].hard = rlim(argv[i + 3]);
			cfg.nlims++;
			i += 3;
			break;
		case 'd': NEED(1); cfg.dir = argv[++i]; break;
		case 'E': NEED(1); cfg.env[nenv++] = argv[++i]; break;
		case 'u': NEED(1); cfg.uid = number(argv[++i], "-u"); break;
		case 'g': NEED(1); cfg.gid = number(argv[++i], "-g"); break;
		case 'c': cfg.dropcaps = 1; break;
		case 'e': cfg.early = 1; break;
		case 'U': cfg.mapself = 1; break;
		case 'n': cfg.ns = 1; break;
		case 't': cfg.trace = 1; break;
		case 'm': NEED(1); cfg.root = argv[++i]; break;
		case 'M': NEED(1); cfg.judge_mntns = (unsigned long long)number(argv[++i], "-M"); break;
		case 'H': NEED(1); cfg.hostname = argv[++i]; break;
		case 'N': NEED(1); cfg.netns = (int)number(argv[++i], "-N"); break;
		case 'b': case 'w': case 'S': case 'F': case 'l': case 'T': case 'P': case 'D': {
			int two = o[1] != 'P' && o[1] != 'D';
			NEED(two ? 2 : 1);
			if (cfg.nops == MAXOPS)
				fail(E2BIG, "too many mounts", o);
			struct op *op = &cfg.ops[cfg.nops++];
			op->kind = o[1];
			op->a = argv[++i];
			op->b = two ? argv[++i] : NULL;
			break;
		}
		default: fail(EINVAL, "bad option", o);
		}
	}
#undef NEED
	cfg.argv = argv + i;
	cfg.nargv = argc - i;
	if (run && cfg.nargv < 2)
		fail(EINVAL, "missing", "PATH ARGV0");
	if ((cfg.ns || cfg.nops > 0) && (!cfg.root || !cfg.judge_mntns))
		fail(EINVAL, "namespace mode needs", "-m and -M");
}

/* ---- killing and reaping ---- */

static pid_t target;
static int target_done, target_status;
static long long t_start, t_end;

/* used is what the run's reaped processes used: the sum of their CPU times
 * and the largest resident size, as RUSAGE_CHILDREN would say for a
 * supervisor that runs once (a resident one runs again and again). */
static struct {
	long long utime, stime; /* microseconds */
	long maxrss;            /* KiB */
} used;

static long long us(struct timeval tv) { return (long long)tv.tv_sec * 1000000 + tv.tv_usec; }

static void note_exit(pid_t p, int st, const struct rusage *ru) {
	used.utime += (long long)ru->ru_utime.tv_sec * 1000000 + ru->ru_utime.tv_usec;
	used.stime += (long long)ru->ru_stime.tv_sec * 1000000 + ru->ru_stime.tv_usec;
	if (ru->ru_maxrss > used.maxrss)
		used.maxrss = ru->ru_maxrss;
	if (p == target && !target_done) {
		target_done = 1;
		target_status = st;
		t_end = now_us();
	}
}

/* reap_some reaps what has ended; it returns -1 once nothing is left. */
static int reap_some(int *any) {
	int st;
	struct rusage ru;
	pid_t p;
	while ((p = wait4(-1, &st, __WALL | WNOHANG, &ru)) > 0) {
		note_exit(p, st, &ru);
		if (any)
			*any = 1;
	}
	return p < 0 && errno == ECHILD ? -1 : 0;
}

#ifdef __linux__
/* kill_pids parses a list of pids ("12 345 ") across read() boundaries and
 * SIGKILLs each. It returns -1 when fd could not be read. */
static int kill_pids(int fd) {
	char buf[4096];
	long cur = -1;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (isdigit((unsigned char)buf[i])) {
				cur = (cur < 0 ? 0 : cur * 10) + (buf[i] - '0');
			} else if (cur > 0) {
				kill((pid_t)cur, SIGKILL);
				cur = -1;
			}
		}
	}
	if (cur > 0)
		kill((pid_t)cur, SIGKILL);
	return n < 0 ? -1 : 0;
}
#endif

/* kill_children SIGKILLs every direct child. As a child subreaper, every
 * orphaned descendant (setsid or not) becomes our child once its parent dies,
 * so repeating this until nothing is left empties the tree. */
static void kill_children(void) {
#ifdef __linux__
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		int r = kill_pids(fd);
		close(fd);
		if (r == 0)
			return;
	}
#endif
	/* no children file: scan /proc for our children */
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *e;
	pid_t self = getpid();
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char p[300], buf[512];
		snprintf(p, sizeof p, "/proc/%s/stat", e->d_name);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		char *rp = strrchr(buf, ')');
		int ppid;
		long pid = atol(e->d_name);
		if (rp && sscanf(rp + 1, " %*c %d", &ppid) == 1 && ppid == self && pid > 0)
			kill((pid_t)pid, SIGKILL);
	}
	closedir(d);
}

static void kill_all(void) {
#ifdef __linux__
	if (cfg.ns && getpid() == 1) {
		/* PID 1 of our own PID namespace: -1 is exactly the box */
		kill(-1, SIGKILL);
		return;
	}
#endif
	/* once the contestant is reaped its number may be reused: only the
	 * subreaper walk is safe then */
	if (!target_done && target > 0)
		kill(-target, SIGKILL);
	kill_children();
}

/* kill_and_reap kills every descendant and reaps them until none is left. */
static void kill_and_reap(void) {
	/* Killing walks every child, so it runs at most every 5 ms: re-walking
	 * thousands of dying fork-bomb children after each reap made this
	 * quadratic, and the judge's kill grace ran out first under load. */
	long long last = -1;
	for (;;) {
		long long now = now_us();
		if (last < 0 || now - last >= 5000) {
			kill_all();
			last = now;
		}
		int any = 0;
		if (reap_some(&any) < 0)
			return; /* the tree is empty */
		if (!any)
			usleep(200);
	}
}

/* ---- the contestant's process ---- */

void child_fail(int fd, int err, const char *what, const char *arg) {
	char buf[512];
	int n = snprintf(buf, sizeof buf, "err %d %s %s: %s\n", err, what, arg ? arg : "", strerror(err));
	if (n > (int)sizeof buf - 1)
		n = sizeof buf - 1;
	ssize_t w = write(fd, buf, n);
	(void)w;
	_exit(127);
}

static void close_fds(int errfd) {
#if defined(__linux__) && defined(SYS_close_range)
	/* close-on-exec rather than close: errfd must survive until exec */
	if (syscall(SYS_close_range, 3, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */) == 0)
		return;
#endif
	long max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 1 << 20)
		max = 1 << 20;
	for (int fd = 3; fd < max; fd++)
		if (fd != errfd)
			close(fd);
}

static void set_limits(int errfd) {
	for (int i = 0; i < cfg.nlims; i++) {
		struct lim *l = &cfg.lims[i];
		struct rlimit r = {l->soft, l->hard};
		if (setrlimit(l->res, &r) == 0)
			continue;
		/* without privilege a hard limit cannot be raised: clamp to it */
		struct rlimit cur;
		if (errno != EPERM || getrlimit(l->res, &cur) != 0)
			child_fail(errfd, errno, "setrlimit", NULL);
		if (r.rlim_max > cur.rlim_max)
			r.rlim_max = cur.rlim_max;
		if (r.rlim_cur > r.rlim_max)
			r.rlim_cur = r.rlim_max;
		if (setrlimit(l->res, &r) != 0)
			child_fail(errfd, errno, "setrlimit", NULL);
	}
}

static void child(int errfd) {
	sigset_t none;
	sigemptyset(&none);
	/* exec resets the handled signals; the zygote set every other one to
	 * the default, but for SIGPIPE, which it ignores */
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (setpgid(0, 0) != 0)
		child_fail(errfd, errno, "setpgid", NULL);
	if (cfg.dir && chdir(cfg.dir) != 0)
		child_fail(errfd, errno, "chdir", cfg.dir);
	set_limits(errfd);
	if (cfg.gid >= 0 && (setgroups(0, NULL) != 0 || setgid((gid_t)cfg.gid) != 0))
		child_fail(errfd, errno, "setgid", NULL);
	/* as root, setuid sets the real, effective and saved ids alike */
	if (cfg.uid >= 0 && setuid((uid_t)cfg.uid) != 0)
		child_fail(errfd, errno, "setuid", NULL);
#ifdef __linux__
	/* after setuid, which clears it */
	if (!cfg.ns)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	confine(errfd);
#endif
	close_fds(errfd);
	execve(cfg.argv[0], cfg.argv + 1, cfg.env);
	child_fail(errfd, errno, "exec", cfg.argv[0]);
}

#ifdef __linux__
/* The contestant's process starts as a vfork-style clone: it shares our
 * memory (we are suspended until it has exec'd or failed), so that nothing
 * is copied, and runs on a stack of its own. */
static char child_stack[256 << 10] __attribute__((aligned(16)));

static int child_main(void *errfd) {
	child((int)(intptr_t)errfd);
	return 127;
}
#endif

/* start starts the contestant and waits until it has exec'd; a failure
 * before the exec is forwarded as the report. */
static void start(void) {
	int p[2];
	if (pipe(p) != 0 || fcntl(p[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(p[1], F_SETFD, FD_CLOEXEC) != 0)
		fail(errno, "pipe", NULL);
	t_start = now_us();
#ifdef __linux__
	target = clone(child_main, child_stack + sizeof child_stack, CLONE_VM | CLONE_VFORK | SIGCHLD,
	               (void *)(intptr_t)p[1]);
#else
	target = fork();
	if (target == 0)
		child(p[1]);
#endif
	if (target < 0)
		fail(errno, "fork", NULL);
	close(p[1]);
	char buf[512];
	ssize_t n, got = 0;
	while (got < (ssize_t)sizeof buf - 1 && (n = read(p[0], buf + got, sizeof buf - 1 - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		got += n;
	}
	close(p[0]);
	if (got > 0) {
		buf[got] = 0;
		kill_and_reap();
		report("%s", buf);
		_exit(125);
	}
}

static sigset_t waitset;

/* join_groups joins the run's cgroups (cfg.joins), once the box is built
 * (which is not charged to them): the contestant starts in them. */
static void join_groups(void) {
	for (int i = 0; i < cfg.njoins; i++) {
		if (write(cfg.joins[i], "0", 1) != 1)
			fail(errno, "join cgroup", NULL);
		close(cfg.joins[i]);
		in_group = 1;
	}
	cfg.njoins = 0;
}

/* signal_pending takes the signals that wait (SIGCHLD of the reaped tree
 * is harmless) and reports whether another was among them. */
static int signal_pending(void) {
	int other = 0;
	struct timespec zero = {0, 0};
	int sig;
	while ((sig = sigtimedwait(&waitset, NULL, &zero)) > 0)
		other |= sig != SIGCHLD;
	return other;
}

/* park moves a resident supervisor out of the last run's cgroups. */
static int park(void) {
	if (!in_group)
		return 0;
	if (nparks == 0)
		return -1;
	for (int i = 0; i < nparks; i++)
		if (write(park_fds[i], "0", 1) != 1)
			return -1;
	in_group = 0;
	return 0;
}

/* box_prepare is the part of a run that needs nothing of the request: it
 * blocks the signals the supervisor waits for, in namespace mode starts the
 * root with the first nops ops (a spare's skeleton; with -e it pivots into
 * it), and joins the cgroups. */
void box_prepare(int nops) {
	sigemptyset(&waitset);
	int sigs[] = {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&waitset, sigs[i]);
	sigprocmask(SIG_BLOCK, &waitset, NULL);
#ifdef __linux__
	if (cfg.mapself)
		map_self();
	if (cfg.ns) {
		root_begin();
		root_ops(0, nops);
		if (cfg.early)
			root_pivot();
	} else if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
		fail(errno, "subreaper", NULL);
	}
#else
	(void)nops;
	if (cfg.ns)
		fail(ENOSYS, "namespaces", NULL);
#endif
	join_groups();
}

/* box_run finishes the root with ops[from:], runs the program and reports.
 * A resident supervisor (a spare) may serve another run: box_run returns 1
 * when it can, and says so in the report. */
int box_run(int from, int resident) {
	mark("box:start");
#ifdef __linux__
	/* a resident spare's root is built by its first run; the judge sends
	 * no mount with the runs after it, which share that root */
	static int rooted;
	if (cfg.ns && !rooted) {
		root_ops(from, cfg.nops);
		if (!cfg.early)
			root_pivot();
		root_seal();
		root_mark(from, cfg.nops);
		rooted = 1;
	} else if (cfg.ns && cfg.nops > from) {
		fail(EINVAL, "mounts for a box built already", NULL);
	}
#else
	(void)from;
#endif
	join_groups(); /* a resident spare's later runs bring their own */
	mark("box:root");
	start();
	mark("box:exec");
	/* only the contestant holds its streams now: they end with its tree */
	close(0);
	close(1);
	close(2);
	int killed = 0;
	for (;;) {
		reap_some(NULL);
		if (target_done)
			break;
		int sig = 0;
		if (sigwait(&waitset, &sig) == 0 && sig != SIGCHLD) {
			killed = 1;
			break;
		}
	}
	mark("box:exit");
	kill_and_reap();
	/* a resident box serves again if the run ended by itself, no signal
	 * (one the program sent us, or the judge's, late) waits, and, in
	 * namespace mode, its root is as the first run left it and its /tmp
	 * could be emptied */
	int again = resident && !killed && !signal_pending();
#ifdef __linux__
	if (again && cfg.ns && (root_clean(from) != 0 || root_moved() != 0))
		again = 0;
#endif
	if (again && park() != 0)
		again = 0;
	int st = target_status;
	long maxrss = used.maxrss;
#ifdef __APPLE__
	maxrss /= 1024; /* bytes there, KiB elsewhere */
#endif
	mark("box:reaped");
	/* what the supervisor has used so far, itself and its children in all
	 * its runs: for a resident one, the judge's base for the next run */
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	report("ok %s %d %lld %lld %ld %lld %d %d %lld %lld %lld\n", WIFSIGNALED(st) ? "signal" : "exit",
	       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), used.utime, used.stime, maxrss, t_end - t_start, killed,
	       again, us(kids.ru_utime), us(kids.ru_stime), us(self.ru_utime) + us(self.ru_stime));
	/* ready for another run (a resident spare's) */
	target = 0;
	target_done = target_status = 0;
	t_start = t_end = 0;
	memset(&used, 0, sizeof used);
	return again;
}

/* box_main runs one program from a full request: every option in argv. */
int box_main(int argc, char **argv) {
	parse(argc, argv, 1);
	cfg.early = 0;
	box_prepare(cfg.nops);
	box_run(cfg.nops, 0);
	return 0;
}
