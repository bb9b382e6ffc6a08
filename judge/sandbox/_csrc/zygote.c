/*
 * The zygote: the resident helper that package sandbox starts once per
 * Sandbox. It makes, on request, the supervisors (box.c) that run the
 * programs, so that no helper is executed per run, and a supervisor is a
 * fork of a tiny static process, not of the judge.
 *
 * Most supervisors are spares: made ahead of time (in namespace mode,
 * cloned into fresh namespaces), they build the run-independent part of
 * their box (the skeleton), join their cgroups and wait for a run request
 * from the judge on a socket of their own. The judge keeps a few ready. A
 * spare is resident: it serves run after run in the same box, cleaned in
 * between, until the judge lets it go (see spare_main).
 *
 * Usage: optjudge-box -s FD [-M INODE -m DIR TEMPLATE-OPTIONS...]
 *                     [-- FLAGS SPARE-OPTIONS...]
 *   FD is the control socket. With -m, the zygote (started by the judge in a
 *   mount namespace of its own) mounts the template on a tmpfs at DIR: the
 *   -b, -D, ... options of box.c, applied once; the boxes bind from it.
 *   Spares are cloned with FLAGS and prepared with SPARE-OPTIONS (box.c's
 *   options shared by every run, the skeleton's mounts first). The zygote
 *   answers "ok\n" or "err ERRNO WHAT: MESSAGE\n" on the socket once it is
 *   ready, then only listens.
 *
 * Messages, here and to a spare, are a 4-byte little-endian length and that
 * many bytes of NUL-terminated words, the descriptors in one SCM_RIGHTS
 * message. Requests to the zygote:
 *   n ID [NPARK]            make spare ID; descriptors: its report, its
 *                           request socket, the cgroup.procs it joins, and
 *                           the last NPARK the cgroup.procs of its park,
 *                           where it moves after each run
 *   r ID FLAGS OPTIONS...   start a run on a supervisor cloned for it with
 *                           FLAGS and all of OPTIONS; descriptors: stdin,
 *                           stdout, stderr, report, then those the options
 *                           name (as 4, 5, ...)
 *   k ID SIGNAL             signal supervisor ID if it is alive
 * A request to a spare is the run's own OPTIONS; descriptors: stdin, stdout,
 * stderr, the run's report, then those the options name (as 4, 5, ...). A
 * spare serves requests until its socket closes: the judge sends another
 * only after a run that ended by itself, with no mount of its own (the
 * box's root, built by its first run, stays). A supervisor gets its
 * descriptors as 0, 1, 2, 3 (the report), 4, ...
 * On each report descriptor the zygote writes, around the supervisor's own
 * lines:
 *   p PID START                 the supervisor's pid and start time (/proc,
 *                               clock ticks)
 *   x STATUS UTIME_US STIME_US  its wait status, once reaped
 * and closes it. When the control socket closes (the judge exited or closed
 * the Sandbox) it kills every supervisor, reaps them and exits.
 */
#include "box.h"

struct run {
	unsigned long long id;
	pid_t pid;
	int report;
};

static struct run *runs;
static size_t nruns, capruns;
static unsigned long spare_flags;
static char **spare_argv;
static int spare_argc;
static int sigpipe[2] = {-1, -1};
static unsigned long long zygote_mntns, judge_mntns;
static pid_t zygote_pid;

static void say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int fd, const char *fmt, ...) {
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 1)
		n = sizeof buf - 1;
	ssize_t w = write(fd, buf, n);
	(void)w;
}

static void on_child(int sig) {
	(void)sig;
	int e = errno;
	ssize_t w = write(sigpipe[1], "", 1);
	(void)w;
	errno = e;
}

static void close_all(int *fds, int n) {
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

/* ---- messages ---- */

/* read_full reads exactly n bytes; 0 on end of file. */
static ssize_t read_full(int fd, void *p, size_t n) {
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* receive reads one message: its payload (NUL-terminated words, in one
 * buffer) and descriptors, close-on-exec if asked. It returns 0 at end of
 * file, -1 on a broken message (whose descriptors are closed). */
static int receive(int sock, char **buf, uint32_t *len, int *fds, int *nfds, int cloexec) {
	unsigned char hdr[4];
	char cbuf[CMSG_SPACE(sizeof(int) * MAXFDS)];
	struct iovec iov = {hdr, sizeof hdr};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
	ssize_t n;
	int flags = 0;
#ifdef MSG_CMSG_CLOEXEC
	if (cloexec)
		flags = MSG_CMSG_CLOEXEC;
#else
	(void)cloexec;
#endif
	*nfds = 0;
	do
		n = recvmsg(sock, &m, flags);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return (int)n;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		for (int i = 0; i < k; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
			if (*nfds < MAXFDS)
				fds[(*nfds)++] = fd;
			else
				close(fd);
		}
	}
	if (n < (ssize_t)sizeof hdr && read_full(sock, hdr + n, sizeof hdr - (size_t)n) <= 0)
		return 0;
	*len = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 | (uint32_t)hdr[3] << 24;
	if (*len > 64 << 20 || (m.msg_flags & MSG_CTRUNC) != 0 || !(*buf = malloc(*len + 1))) {
		close_all(fds, *nfds);
		*nfds = 0;
		return -1;
	}
	if (read_full(sock, *buf, *len) <= 0) {
		free(*buf);
		return 0;
	}
	(*buf)[*len] = 0;
	return 1;
}

/* words splits a payload into its NUL-terminated words. */
static char **words(char *buf, uint32_t len, int *argc) {
	int n = 0;
	for (uint32_t i = 0; i < len; i++)
		n += buf[i] == 0;
	char **w = calloc((size_t)n + 1, sizeof *w);
	if (!w)
		return NULL;
	char *p = buf;
	for (int i = 0; i < n; i++) {
		w[i] = p;
		p += strlen(p) + 1;
	}
	*argc = n;
	return w;
}

/* ---- supervisors ---- */

/* close_except closes every descriptor from lo on but those in keep. */
static void close_except(int lo, const int *keep, int nkeep) {
	for (;;) {
		int hi = -1; /* the lowest kept descriptor from lo on */
		for (int i = 0; i < nkeep; i++)
			if (keep[i] >= lo && (hi < 0 || keep[i] < hi))
				hi = keep[i];
		unsigned top = hi < 0 ? ~0U : (unsigned)hi - 1;
		if ((unsigned)lo <= top) {
#if defined(__linux__) && defined(SYS_close_range)
			if (syscall(SYS_close_range, lo, top, 0) != 0)
#endif
			{
				long max = sysconf(_SC_OPEN_MAX);
				if (max < 0 || max > 1 << 20)
					max = 1 << 20;
				for (long fd = lo; fd <= (long)top && fd < max; fd++)
					close((int)fd);
			}
		}
		if (hi < 0)
			return;
		lo = hi + 1;
	}
}

/* Where a spare keeps its own descriptors, above any a request brings. */
enum { LIFE_FD = 3 + MAXFDS, SOCK_FD = LIFE_FD + 1, PARK_FD = SOCK_FD + 1 };

/* spare_fds lists a spare's own descriptors into keep; it returns how many. */
static int spare_fds(int *keep) {
	int n = 0;
	keep[n++] = LIFE_FD;
	keep[n++] = SOCK_FD;
	for (int i = 0; i < nparks; i++)
		keep[n++] = park_fds[i];
	return n;
}

/* place moves the received descriptors to 0, 1, 2, ... and closes every
 * other descriptor (the socket, other runs' reports) but, if spare, a
 * spare's own (LIFE_FD and SOCK_FD). */
static void place(int *fds, int n, int spare) {
	int tmp[MAXFDS];
	for (int i = 0; i < n; i++)
		if ((tmp[i] = fcntl(fds[i], F_DUPFD, n)) < 0)
			_exit(125);
	for (int i = 0; i < n; i++)
		if (dup2(tmp[i], i) < 0)
			_exit(125);
	int keep[2 + MAXJOINS] = {0};
	int nkeep = spare ? spare_fds(keep) : 0;
	close_except(n, keep, nkeep);
	if (n < 3)
		_exit(125);
}

/* reset_cfg gives a new supervisor the options every run starts from. */
static void reset_cfg(void) {
	memset(&cfg, 0, sizeof cfg);
	cfg.status_fd = -1;
	cfg.uid = cfg.gid = -1;
	cfg.netns = -1;
	cfg.zygote_mntns = zygote_mntns;
	cfg.judge_mntns = judge_mntns;
}

/* become_supervisor is the first step of every child: it dies with the
 * zygote (whose pid a new PID namespace hides, hence the second test). */
static void become_supervisor(void) {
	signal(SIGCHLD, SIG_DFL);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != zygote_pid && getpid() != 1)
		_exit(125);
#endif
	reset_cfg();
}

static pid_t clone_flags(unsigned long flags) {
#ifdef __linux__
	const unsigned long allowed =
	    CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWUSER;
	if ((flags & ~allowed) != 0 || ((flags & CLONE_NEWNS) && !zygote_mntns)) {
		errno = EINVAL;
		return -1;
	}
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
#else
	if (flags != 0) {
		errno = ENOSYS;
		return -1;
	}
	return fork();
#endif
}

/* start_time is pid's start time from /proc/PID/stat, -1 if unknown. Only
 * the zygote reaps its children, so the pid is still theirs when it reads. */
static long long start_time(pid_t pid) {
	long long start = -1;
#ifdef __linux__
	char path[64], st[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, st, sizeof st - 1);
	close(fd);
	char *rp = n > 0 ? (st[n] = 0, strrchr(st, ')')) : NULL;
	if (rp)
		sscanf(rp + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %lld", &start);
#else
	(void)pid;
#endif
	return start;
}

static void add_run(unsigned long long id, pid_t pid, long long start, int report) {
	say(report, "p %d %lld\n", (int)pid, start);
	if (nruns == capruns) {
		size_t c = capruns ? 2 * capruns : 16;
		struct run *r = realloc(runs, c * sizeof *r);
		if (!r) {
			kill(pid, SIGKILL);
			close(report);
			return;
		}
		runs = r;
		capruns = c;
	}
	runs[nruns++] = (struct run){id, pid, report};
}

/* spare_main is a spare: it prepares the skeleton, joins its cgroups, then
 * runs the requests that come on sock, one after the other, until the judge
 * closes it. Its report pipe (the "life" pipe, where the zygote writes its
 * pid and end) carries only a setup failure; each request brings its own
 * report descriptor. Between two runs it refreshes the box (root_refresh).
 * It keeps nothing at 0 to 3 and 4 on: a request's descriptors then arrive
 * where the supervisor wants them (stdin at 0, ..., the report at 3, the
 * options' from 4). */
/* above moves a spare's descriptor above its fixed ones, so that placing
 * those can overwrite none of ours (the zygote's descriptors, which a
 * clone inherits, may be anywhere). */
static int above(int fd) {
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, PARK_FD + MAXJOINS);
	if (hi < 0)
		_exit(125);
	return hi;
}

static void spare_main(int report, int sock, const int *joins, int njoins, const int *parks, int nparks_) {
	become_supervisor();
	int hijoins[MAXJOINS], hiparks[MAXJOINS];
	njoins = njoins < MAXJOINS ? njoins : MAXJOINS;
	nparks_ = nparks_ < MAXJOINS ? nparks_ : MAXJOINS;
	report = above(report);
	sock = above(sock);
	for (int i = 0; i < njoins; i++)
		hijoins[i] = above(joins[i]);
	for (int i = 0; i < nparks_; i++)
		hiparks[i] = above(parks[i]);
	if (dup2(report, LIFE_FD) != LIFE_FD || dup2(sock, SOCK_FD) != SOCK_FD)
		_exit(125);
	for (int i = 0; i < nparks_; i++)
		if ((park_fds[nparks++] = dup2(hiparks[i], PARK_FD + i)) < 0)
			_exit(125);
	int keep[2 * MAXJOINS + 3];
	int nkeep = spare_fds(keep);
	for (int i = 0; i < nkeep; i++)
		fcntl(keep[i], F_SETFD, FD_CLOEXEC);
	cfg.status_fd = LIFE_FD;
	parse(spare_argc, spare_argv, 0);
	if (cfg.netns >= 0)
		keep[nkeep++] = cfg.netns;
	for (int i = 0; i < njoins && cfg.njoins < MAXJOINS; i++)
		keep[nkeep++] = cfg.joins[cfg.njoins++] = hijoins[i];
	close_except(0, keep, nkeep);
	int skeleton = cfg.nops;
	box_prepare(skeleton);
	struct config base = cfg;
	for (;;) {
		char *buf = NULL;
		uint32_t len;
		int fds[MAXFDS], nfds, argc = 0;
		/* not close-on-exec: 0, 1 and 2 go to the contestant as they are */
		if (receive(SOCK_FD, &buf, &len, fds, &nfds, 0) != 1)
			_exit(0);
		char **argv = words(buf, len, &argc);
		if (!argv || nfds < 4 || nfds >= MAXFDS)
			fail(EINVAL, "request", NULL);
		int placed = 1;
		for (int i = 0; i < nfds; i++)
			placed &= fds[i] == i;
		if (placed) {
			nkeep = spare_fds(keep);
			close_except(nfds, keep, nkeep);
		} else {
			place(fds, nfds, 1);
		}
		cfg = base;
		cfg.status_fd = 3;
		parse(argc, argv, 1);
		int again = box_run(skeleton, 1);
		free(cfg.env);
		free(argv);
		free(buf);
		close(3);
		/* the judge sends another run only if the report said so */
		if (!again)
			_exit(0);
#ifdef __linux__
		cfg.status_fd = LIFE_FD;
		if (cfg.ns)
			root_refresh();
#endif
	}
}

/* make_spare starts spare id with descriptors: report, socket, joins, and
 * the last nparks_ its park. */
static void make_spare(unsigned long long id, int nparks_, int *fds, int nfds) {
	int report = fds[0];
	if (nfds < 2 || nparks_ < 0 || nparks_ > nfds - 2 || nparks_ > MAXJOINS) {
		close_all(fds, nfds);
		return;
	}
	pid_t pid = clone_flags(spare_flags);
	if (pid == 0)
		spare_main(report, fds[1], fds + 2, nfds - 2 - nparks_, fds + nfds - nparks_, nparks_);
	int err = errno;
	for (int i = 1; i < nfds; i++)
		close(fds[i]);
	if (pid < 0) {
		say(report, "err %d clone: %s\n", err, strerror(err));
		close(report);
		return;
	}
	add_run(id, pid, start_time(pid), report);
}

/* run_fresh clones a supervisor for a request with all its options. */
static void run_fresh(unsigned long long id, unsigned long flags, int argc, char **argv, int *fds, int nfds) {
	int report = fds[3];
	pid_t pid = clone_flags(flags);
	if (pid == 0) {
		become_supervisor();
		place(fds, nfds, 0);
		cfg.status_fd = 3;
		_exit(box_main(argc, argv));
	}
	int err = errno;
	for (int i = 0; i < nfds; i++)
		if (fds[i] != report)
			close(fds[i]);
	if (pid < 0) {
		say(report, "err %d clone: %s\n", err, strerror(err));
		close(report);
		return;
	}
	add_run(id, pid, start_time(pid), report);
}

/* reap collects every supervisor that has ended and closes its report. */
static void reap(int block) {
	for (;;) {
		int st;
		struct rusage ru;
		pid_t p = wait4(-1, &st, __WALL | (block ? 0 : WNOHANG), &ru);
		if (p < 0 && errno == EINTR)
			continue;
		if (p <= 0)
			return;
		for (size_t i = 0; i < nruns; i++) {
			if (runs[i].pid != p)
				continue;
			say(runs[i].report, "x %d %lld %lld\n", st, (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
			    (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec);
			close(runs[i].report);
			runs[i] = runs[--nruns];
			break;
		}
	}
}

static void handle(char *buf, uint32_t len, int *fds, int nfds) {
	int argc = 0;
	char **argv = words(buf, len, &argc);
	if (!argv) {
		close_all(fds, nfds);
		return;
	}
	unsigned long long id = argc >= 2 ? strtoull(argv[1], NULL, 10) : 0;
	if ((argc == 2 || argc == 3) && strcmp(argv[0], "n") == 0 && nfds >= 2) {
		make_spare(id, argc == 3 ? atoi(argv[2]) : 0, fds, nfds);
	} else if (argc >= 3 && strcmp(argv[0], "r") == 0 && nfds >= 4) {
		run_fresh(id, strtoul(argv[2], NULL, 10), argc - 3, argv + 3, fds, nfds);
	} else {
		close_all(fds, nfds);
		if (argc == 3 && strcmp(argv[0], "k") == 0) {
			int sig = atoi(argv[2]);
			/* only we reap the supervisors: an unreaped pid is still theirs */
			for (size_t i = 0; i < nruns; i++)
				if (runs[i].id == id && runs[i].pid > 0 && (sig == SIGTERM || sig == SIGKILL))
					kill(runs[i].pid, sig);
		}
	}
	free(argv);
}

static void serve(int ctl) {
	struct pollfd pf[2] = {{ctl, POLLIN, 0}, {sigpipe[0], POLLIN, 0}};
	for (;;) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[1].revents) {
			char drain[64];
			while (read(sigpipe[0], drain, sizeof drain) > 0) {
			}
			reap(0);
		}
		if (pf[0].revents) {
			char *buf = NULL;
			uint32_t len = 0;
			int fds[MAXFDS], nfds = 0;
			int r = receive(ctl, &buf, &len, fds, &nfds, 1);
			if (r == 0)
				break;
			if (r > 0) {
				handle(buf, len, fds, nfds);
				free(buf);
			}
		}
	}
	/* the judge is gone: so are its runs */
	for (size_t i = 0; i < nruns; i++)
		if (runs[i].pid > 0)
			kill(runs[i].pid, SIGKILL);
	while (nruns > 0) {
		size_t before = nruns;
		reap(1);
		if (nruns == before)
			break;
	}
}

int main(int argc, char **argv) {
	zygote_pid = getpid();
	parse(argc - 1, argv + 1, 0);
	int ctl = cfg.status_fd;
	if (ctl < 0)
		return 2;
	if (cfg.nargv > 0) {
		spare_flags = strtoul(cfg.argv[0], NULL, 10);
		spare_argv = cfg.argv + 1;
		spare_argc = cfg.nargv - 1;
	}
	/* the contestant starts with every signal at its default: exec resets
	 * the handled ones, and here the others are */
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
#ifdef __linux__
	/* nobody in a box may ptrace or read the supervisors (or us) */
	prctl(PR_SET_DUMPABLE, 0);
	if (cfg.root)
		build_template();
#else
	if (cfg.root)
		fail(ENOSYS, "namespaces", NULL);
#endif
	zygote_mntns = cfg.zygote_mntns;
	judge_mntns = cfg.judge_mntns;
	if (pipe(sigpipe) != 0)
		fail(errno, "pipe", NULL);
	for (int i = 0; i < 2; i++)
		if (fcntl(sigpipe[i], F_SETFD, FD_CLOEXEC) != 0 || fcntl(sigpipe[i], F_SETFL, O_NONBLOCK) != 0)
			fail(errno, "pipe", NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	say(ctl, "ok\n");
	serve(ctl);
	return 0;
}
