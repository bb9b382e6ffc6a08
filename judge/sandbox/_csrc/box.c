/*
 * optjudge-box: the small C supervisor that package sandbox starts for every
 * run. It exists so that no second Go runtime is started per test: it applies
 * the resource limits between fork and exec, and (in namespace mode) is the
 * PID 1 of the box: it builds the minimal root, forks the contestant, reaps
 * every process, reports the contestant's status and kills whatever is left.
 *
 * Usage (every option is its own argv word; the judge builds the line):
 *   optjudge-box [options] -- PATH ARGV0 ARGS...
 *   -s FD           write the final report to FD
 *   -j FD           write "0" to FD (a cgroup.procs file) before forking
 *   -r RES SOFT HARD  setrlimit(RES) in the child; SOFT/HARD may be "inf"
 *   -d DIR          working directory of the contestant
 *   -u UID -g GID   run the contestant as UID/GID, no supplementary groups
 *   -c              drop every capability (user-namespace mode)
 *   -n              namespace mode: be init, build the root, pivot_root
 *   -M INODE        the judge's mount namespace inode: namespace mode refuses
 *                   to run unless it is PID 1 in a different mount namespace
 *   -m DIR          mountpoint of the new root (namespace mode)
 *   -H NAME         hostname (namespace mode)
 *   -N FD           join the network namespace FD (instead of a fresh one) and
 *                   confine the contestant with Landlock scoping, so that
 *                   boxes sharing it cannot reach each other's abstract
 *                   unix sockets
 *   -b SRC DST      read-only bind mount (namespace mode, in order)
 *   -w SRC DST      read-write bind mount
 *   -l TARGET DST   symbolic link
 *   -T DST BYTES    tmpfs, mode 1777
 *   -P DST          fresh proc (hidepid=2)
 *   -D DST          minimal /dev (null zero full random urandom, fd links)
 *
 * The contestant runs with its own process group, the limits, no descriptor
 * above 2, no_new_privs and (on Linux) a small seccomp blocklist.
 *
 * Report, one line on the -s descriptor:
 *   ok exit|signal N UTIME_US STIME_US MAXRSS_KB WALL_US KILLED
 *   err ERRNO WHAT: MESSAGE
 * KILLED is 1 when a signal (the judge's SIGTERM) ended the run early.
 * CPU and memory are those of every reaped descendant (RUSAGE_CHILDREN), so
 * the helper's own setup is not charged to the contestant.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <stddef.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#endif

#ifndef __WALL
#define __WALL 0
#endif

enum { MAXOPS = 128, MAXLIMS = 16, MAXJOINS = 8 };

struct op {
	char kind; /* b w l T P D */
	const char *a, *b;
};

struct lim {
	int res;
	rlim_t soft, hard;
};

static struct {
	int status_fd;
	int joins[MAXJOINS], njoins;
	struct lim lims[MAXLIMS];
	int nlims;
	const char *dir;
	long uid, gid;
	int dropcaps, ns;
	const char *root, *hostname;
	unsigned long long judge_mntns;
	int netns;
	struct op ops[MAXOPS];
	int nops;
	char **argv; /* PATH ARGV0 ARGS... */
} cfg = {.status_fd = -1, .uid = -1, .gid = -1, .netns = -1};

static void report(const char *fmt, ...) {
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
static void fail(int err, const char *what, const char *arg) {
	report("err %d %s %s: %s\n", err, what, arg ? arg : "", strerror(err));
	_exit(125);
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

static void parse(int argc, char **argv) {
	int i = 1;
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
		case 'u': NEED(1); cfg.uid = number(argv[++i], "-u"); break;
		case 'g': NEED(1); cfg.gid = number(argv[++i], "-g"); break;
		case 'c': cfg.dropcaps = 1; break;
		case 'n': cfg.ns = 1; break;
		case 'm': NEED(1); cfg.root = argv[++i]; break;
		case 'M': NEED(1); cfg.judge_mntns = (unsigned long long)number(argv[++i], "-M"); break;
		case 'H': NEED(1); cfg.hostname = argv[++i]; break;
		case 'N': NEED(1); cfg.netns = (int)number(argv[++i], "-N"); break;
		case 'b': case 'w': case 'l': case 'T': case 'P': case 'D': {
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
	if (i + 1 >= argc)
		fail(EINVAL, "missing", "PATH ARGV0");
	cfg.argv = argv + i;
	if (cfg.ns && (!cfg.root || !cfg.judge_mntns))
		fail(EINVAL, "namespace mode needs", "-m and -M");
}

/* in_own_namespaces guards everything that would be disastrous in the
 * judge's namespaces: pivot_root, mounting over / and kill(-1). */
static int in_own_namespaces(void) {
#ifdef __linux__
	struct stat st;
	return getpid() == 1 && stat("/proc/self/ns/mnt", &st) == 0 &&
	       (unsigned long long)st.st_ino != cfg.judge_mntns;
#else
	return 0;
#endif
}

static void child_fail(int fd, int err, const char *what, const char *arg);

static long long usec(struct timeval tv) {
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static long long now_us(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#ifdef __linux__

/* ---- the box's root file system (namespace mode) ---- */

static char pathbuf[4096];

static const char *inroot(const char *p) {
	if (snprintf(pathbuf, sizeof pathbuf, "%s%s", cfg.root, p) >= (int)sizeof pathbuf)
		fail(ENAMETOOLONG, "path", p);
	return pathbuf;
}

/* mkdirs creates every directory of p (an absolute path inside the new root),
 * refusing symbolic links so that nothing is ever created outside it. */
static void mkdirs(const char *p, int lastIsFile) {
	char buf[4096];
	size_t rl = strlen(cfg.root);
	if (snprintf(buf, sizeof buf, "%s%s", cfg.root, p) >= (int)sizeof buf)
		fail(ENAMETOOLONG, "path", p);
	for (char *s = buf + rl + 1;; s++) {
		int end = *s == 0;
		if (*s != '/' && !end)
			continue;
		*s = 0;
		struct stat st;
		if (end && lastIsFile) {
			if (lstat(buf, &st) == 0 && S_ISREG(st.st_mode))
				break;
			int fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (fd < 0)
				fail(errno, "create mountpoint", p);
			close(fd);
		} else if (lstat(buf, &st) == 0) {
			if (!S_ISDIR(st.st_mode))
				fail(ENOTDIR, "mountpoint", p);
		} else if (mkdir(buf, 0555) != 0) {
			/* not writable: in a user namespace the box owns these */
			fail(errno, "mkdir", p);
		}
		if (end)
			break;
		*s = '/';
	}
}

static unsigned long kept_flags(const char *mp) {
	struct statvfs sv;
	if (statvfs(mp, &sv) != 0)
		fail(errno, "statvfs", mp);
	unsigned long f = 0;
	if (sv.f_flag & ST_NOSUID) f |= MS_NOSUID;
	if (sv.f_flag & ST_NODEV) f |= MS_NODEV;
	if (sv.f_flag & ST_NOEXEC) f |= MS_NOEXEC;
	if (sv.f_flag & ST_NOATIME) f |= MS_NOATIME;
	if (sv.f_flag & ST_NODIRATIME) f |= MS_NODIRATIME;
	if (sv.f_flag & ST_RELATIME) f |= MS_RELATIME;
	if (sv.f_flag & ST_RDONLY) f |= MS_RDONLY;
	return f;
}

/* unescape decodes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s) {
	char *d = s;
	for (; *s; s++) {
		if (s[0] == '\\' && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2]) &&
		    isdigit((unsigned char)s[3])) {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = 0;
}

static void remount(const char *mp, unsigned long add) {
	unsigned long fl = kept_flags(mp) | add | MS_BIND | MS_REMOUNT;
	if (!(add & MS_RDONLY))
		fl &= ~MS_RDONLY;
	if (mount(NULL, mp, NULL, fl, NULL) != 0)
		fail(errno, "remount", mp);
}

/* remount_tree applies flags to the mount at mp and every mount below it (a
 * recursive bind brings submounts along, and a remount only touches one). */
static void remount_tree(const char *mp, unsigned long add) {
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		fail(errno, "open", "/proc/self/mountinfo");
	size_t n = strlen(mp);
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		char *save, *fld = strtok_r(line, " ", &save);
		for (int k = 0; fld && k < 4; k++)
			fld = strtok_r(NULL, " ", &save);
		if (!fld)
			continue;
		unescape(fld);
		if (strncmp(fld, mp, n) == 0 && (fld[n] == 0 || fld[n] == '/'))
			remount(fld, add);
	}
	free(line);
	fclose(f);
}

/* bind_mount mounts src at dst in the new root. A plain bind leaves out the mounts
 * below src (less to see, one remount); in a user namespace the kernel
 * refuses that when they are locked (EINVAL), and the whole tree is bound. */
static void bind_mount(const char *src, const char *dst, int rw) {
	struct stat st;
	if (stat(src, &st) != 0)
		fail(errno, "bind source", src);
	mkdirs(dst, !S_ISDIR(st.st_mode));
	const char *mp = inroot(dst);
	unsigned long add = MS_NOSUID | MS_NODEV | (rw ? 0 : MS_RDONLY);
	if (mount(src, mp, NULL, MS_BIND, NULL) == 0) {
		remount(mp, add);
		return;
	}
	if (errno != EINVAL || mount(src, mp, NULL, MS_BIND | MS_REC, NULL) != 0)
		fail(errno, "bind", src);
	remount_tree(mp, add);
}

/* make_dev builds a minimal /dev: device nodes made with mknod where we may
 * (root), bound from the host's /dev in a user namespace. */
static void make_dev(const char *dst) {
	static const struct {
		const char *name;
		unsigned minor;
	} nodes[] = {{"null", 3}, {"zero", 5}, {"full", 7}, {"random", 8}, {"urandom", 9}};
	static const char *links[][2] = {
	    {"/proc/self/fd", "fd"},       {"/proc/self/fd/0", "stdin"},
	    {"/proc/self/fd/1", "stdout"}, {"/proc/self/fd/2", "stderr"},
	};
	char src[64], p[4096];
	mkdirs(dst, 0);
	if (mount("tmpfs", inroot(dst), "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755") != 0)
		fail(errno, "mount tmpfs", dst);
	for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", dst, nodes[i].name);
		if (mknod(inroot(p), S_IFCHR | 0666, makedev(1, nodes[i].minor)) == 0) {
			if (chmod(inroot(p), 0666) != 0) /* past the umask */
				fail(errno, "chmod", p);
			continue;
		}
		if (errno != EPERM)
			fail(errno, "mknod", p);
		snprintf(src, sizeof src, "/dev/%s", nodes[i].name);
		mkdirs(p, 1);
		/* the device bind must not be nodev: only the bind's own flags matter */
		if (mount(src, inroot(p), NULL, MS_BIND, NULL) != 0)
			fail(errno, "bind", src);
		if (mount(NULL, inroot(p), NULL, MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NOEXEC, NULL) != 0)
			fail(errno, "remount", src);
	}
	for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", dst, links[i][1]);
		if (symlink(links[i][0], inroot(p)) != 0)
			fail(errno, "symlink", p);
	}
	if (mount(NULL, inroot(dst), NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC, NULL) != 0)
		fail(errno, "remount", dst);
}

static void run_op(const struct op *op) {
	char data[64];
	switch (op->kind) {
	case 'b': bind_mount(op->a, op->b, 0); break;
	case 'w': bind_mount(op->a, op->b, 1); break;
	case 'l':
		mkdirs(op->b, 1);
		/* mkdirs made a placeholder file: replace it by the link */
		if (unlink(inroot(op->b)) != 0 || symlink(op->a, inroot(op->b)) != 0)
			fail(errno, "symlink", op->b);
		break;
	case 'T':
		mkdirs(op->a, 0);
		snprintf(data, sizeof data, "size=%s,mode=1777", op->b);
		if (mount("tmpfs", inroot(op->a), "tmpfs", MS_NOSUID | MS_NODEV, data) != 0)
			fail(errno, "mount tmpfs", op->a);
		break;
	case 'P':
		mkdirs(op->a, 0);
		if (mount("proc", inroot(op->a), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2") != 0)
			fail(errno, "mount proc", op->a);
		break;
	case 'D': make_dev(op->a); break;
	}
}

static void setup_root(void) {
	if (!in_own_namespaces())
		fail(EPERM, "namespace mode outside fresh PID and mount namespaces", NULL);
	if (cfg.netns >= 0) {
		if (setns(cfg.netns, CLONE_NEWNET) != 0)
			fail(errno, "join network namespace", NULL);
		close(cfg.netns);
	}
	/* nothing mounted here may propagate back to the judge's namespace */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		fail(errno, "make / private", NULL);
	if (mount("tmpfs", cfg.root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0)
		fail(errno, "mount root tmpfs", cfg.root);
	for (int i = 0; i < cfg.nops; i++)
		run_op(&cfg.ops[i]);
	if (chdir(cfg.root) != 0)
		fail(errno, "chdir", cfg.root);
	/* pivot_root(".", ".") stacks the old root on the new one; unmounting it
	 * leaves nothing of the judge's file system reachable */
	if (syscall(SYS_pivot_root, ".", ".") != 0)
		fail(errno, "pivot_root", cfg.root);
	if (umount2(".", MNT_DETACH) != 0)
		fail(errno, "umount old root", NULL);
	if (chdir("/") != 0)
		fail(errno, "chdir", "/");
	if (mount(NULL, "/", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
		fail(errno, "remount / read-only", NULL);
	if (cfg.hostname && sethostname(cfg.hostname, strlen(cfg.hostname)) != 0)
		fail(errno, "sethostname", cfg.hostname);
}

/* Landlock scoping (ABI 6, Linux 6.12): the contestant may not connect to
 * abstract unix sockets or signal processes outside its own domain. Defined
 * here since older headers lack it. */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_restrict_self 446
#endif
struct ruleset_attr {
	unsigned long long handled_access_fs, handled_access_net, scoped;
};

static void landlock_scope(int errfd) {
	struct ruleset_attr attr = {0, 0, 1 /* abstract unix socket */ | 2 /* signal */};
	int fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
	if (fd < 0)
		child_fail(errfd, errno, "landlock", NULL);
	if (syscall(SYS_landlock_restrict_self, fd, 0) != 0)
		child_fail(errfd, errno, "landlock", NULL);
	close(fd);
}

/* seccomp_filter refuses the few system calls that reach past the box's
 * namespaces: sockets other than unix, IP and netlink (AF_VSOCK, for one,
 * is not namespaced and reaches a virtual machine's host), io_uring (which
 * can open sockets behind seccomp's back), and every call of another ABI
 * (i386, x32), where the numbers differ. It is a blocklist: namespaces,
 * the uid and the limits do the rest. */
#if defined(__x86_64__)
#define SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_ARCH AUDIT_ARCH_AARCH64
#endif

static void seccomp_filter(int errfd) {
#ifdef SECCOMP_ARCH
#define DENY(e) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (e))
#define IS(nr, yes, no) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), (yes), (no))
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	    IS(SECCOMP_ARCH, 1, 0),
	    DENY(ENOSYS),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* x32 */
	    DENY(ENOSYS),
	    IS(__NR_io_uring_setup, 2, 0),
	    IS(__NR_io_uring_enter, 1, 0),
	    IS(__NR_io_uring_register, 0, 1),
	    DENY(ENOSYS),
	    IS(__NR_socket, 0, 7),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
	    IS(AF_UNIX, 3, 0),
	    IS(AF_INET, 2, 0),
	    IS(AF_INET6, 1, 0),
	    IS(AF_NETLINK, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	    DENY(EAFNOSUPPORT),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
#undef DENY
#undef IS
	struct sock_fprog prog = {sizeof f / sizeof f[0], f};
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
		child_fail(errfd, errno, "seccomp", NULL);
#else
	(void)errfd;
#endif
}

static void drop_caps(int errfd) {
	if (prctl(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_SETUID_FIXUP |
	                                 SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_NOROOT |
	                                 SECBIT_NOROOT_LOCKED) != 0)
		child_fail(errfd, errno, "securebits", NULL);
	for (int c = 0; c < 64; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0 && errno != EINVAL)
			child_fail(errfd, errno, "drop bounding capability", NULL);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	memset(d, 0, sizeof d);
	if (syscall(SYS_capset, &h, d) != 0)
		child_fail(errfd, errno, "capset", NULL);
}

#endif /* __linux__ */

/* ---- killing and reaping ---- */

static pid_t target;
static int target_done, target_status;
static long long t_start, t_end;

static void note_exit(pid_t p, int st) {
	if (p == target && !target_done) {
		target_done = 1;
		target_status = st;
		t_end = now_us();
	}
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
			} else if (cur >= 0) {
				kill((pid_t)cur, SIGKILL);
				cur = -1;
			}
		}
	}
	if (cur >= 0)
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
		if (rp && sscanf(rp + 1, " %*c %d", &ppid) == 1 && ppid == self)
			kill((pid_t)atol(e->d_name), SIGKILL);
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
	if (!target_done)
		kill(-target, SIGKILL);
	kill_children();
}

/* kill_and_reap kills every descendant and reaps them until none is left. */
static void kill_and_reap(void) {
	for (;;) {
		kill_all();
		int st;
		pid_t p = waitpid(-1, &st, __WALL);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			return; /* ECHILD: the tree is empty */
		}
		note_exit(p, st);
		while ((p = waitpid(-1, &st, __WALL | WNOHANG)) > 0)
			note_exit(p, st);
	}
}

/* ---- the contestant's process ---- */

static void child_fail(int fd, int err, const char *what, const char *arg) {
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
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (setpgid(0, 0) != 0)
		child_fail(errfd, errno, "setpgid", NULL);
#ifdef __linux__
	if (!cfg.ns)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (cfg.dir && chdir(cfg.dir) != 0)
		child_fail(errfd, errno, "chdir", cfg.dir);
	set_limits(errfd);
	if (cfg.gid >= 0 && (setgroups(0, NULL) != 0 || setgid((gid_t)cfg.gid) != 0))
		child_fail(errfd, errno, "setgid", NULL);
	/* as root, setuid sets the real, effective and saved ids alike */
	if (cfg.uid >= 0 && setuid((uid_t)cfg.uid) != 0)
		child_fail(errfd, errno, "setuid", NULL);
#ifdef __linux__
	if (cfg.dropcaps)
		drop_caps(errfd);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		child_fail(errfd, errno, "no_new_privs", NULL);
	if (cfg.netns >= 0)
		landlock_scope(errfd);
	seccomp_filter(errfd);
#endif
	close_fds(errfd);
	extern char **environ;
	execve(cfg.argv[0], cfg.argv + 1, environ);
	child_fail(errfd, errno, "exec", cfg.argv[0]);
}

/* start forks the contestant and waits until it has exec'd; a failure before
 * the exec is forwarded as the report. */
static void start(void) {
	int p[2];
	if (pipe(p) != 0 || fcntl(p[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(p[1], F_SETFD, FD_CLOEXEC) != 0)
		fail(errno, "pipe", NULL);
	t_start = now_us();
	target = fork();
	if (target < 0)
		fail(errno, "fork", NULL);
	if (target == 0)
		child(p[1]);
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

int main(int argc, char **argv) {
	sigset_t set;
	sigemptyset(&set);
	int sigs[] = {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, NULL);
	parse(argc, argv);
#ifdef __linux__
	/* nobody in the box may ptrace or read the supervisor */
	prctl(PR_SET_DUMPABLE, 0);
	if (cfg.ns)
		setup_root();
	else if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		fail(errno, "subreaper", NULL);
#else
	if (cfg.ns)
		fail(ENOSYS, "namespaces", NULL);
#endif
	for (int i = 0; i < cfg.njoins; i++) {
		if (write(cfg.joins[i], "0", 1) != 1)
			fail(errno, "join cgroup", NULL);
		close(cfg.joins[i]);
	}
	start();
	int killed = 0;
	for (;;) {
		int st;
		pid_t p;
		while ((p = waitpid(-1, &st, __WALL | WNOHANG)) > 0)
			note_exit(p, st);
		if (target_done)
			break;
		int sig = 0;
		if (sigwait(&set, &sig) == 0 && sig != SIGCHLD) {
			killed = 1;
			break;
		}
	}
	kill_and_reap();
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	int st = target_status;
#ifdef __APPLE__
	ru.ru_maxrss /= 1024; /* bytes there, KiB elsewhere */
#endif
	report("ok %s %d %lld %lld %ld %lld %d\n", WIFSIGNALED(st) ? "signal" : "exit",
	       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), usec(ru.ru_utime), usec(ru.ru_stime),
	       (long)ru.ru_maxrss, t_end - t_start, killed);
	return 0;
}
