/*
 * The box's namespaces (Linux): the template the zygote builds once in its
 * own mount namespace, the root every box builds from it, and the
 * confinement of the contestant (capabilities, Landlock, seccomp).
 *
 * Nothing here may ever run in the judge's mount namespace: the template is
 * built only where /proc/self/ns/mnt differs from the judge's (-M), and a
 * box's root only by PID 1 of a fresh PID namespace whose mount namespace is
 * neither the judge's nor the zygote's.
 */
#include "box.h"

#ifdef __linux__
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <stddef.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

static unsigned long long mntns_inode(void) {
	struct stat st;
	if (stat("/proc/self/ns/mnt", &st) != 0)
		return 0;
	return (unsigned long long)st.st_ino;
}

/* in_own_namespaces guards everything that would be disastrous in the
 * judge's namespaces: pivot_root, mounting over / and kill(-1). */
int in_own_namespaces(void) {
	unsigned long long ino = mntns_inode();
	return getpid() == 1 && ino != 0 && cfg.judge_mntns != 0 && cfg.zygote_mntns != 0 &&
	       ino != cfg.judge_mntns && ino != cfg.zygote_mntns;
}

/* ---- building a root ---- */

static char pathbuf[4096];

static const char *inroot(const char *p) {
	if (snprintf(pathbuf, sizeof pathbuf, "%s%s", cfg.root, p) >= (int)sizeof pathbuf)
		fail(ENAMETOOLONG, "path", p);
	return pathbuf;
}

enum { DIR_LAST, FILE_LAST, PARENTS_ONLY };

/* mkdirs creates every directory of p (an absolute path inside the new root),
 * refusing symbolic links so that nothing is ever created outside it. The
 * last component is a directory, an empty file (a mountpoint for a file), or
 * left alone. */
static void mkdirs(const char *p, int last) {
	char buf[4096];
	size_t rl = strlen(cfg.root);
	if (snprintf(buf, sizeof buf, "%s%s", cfg.root, p) >= (int)sizeof buf)
		fail(ENAMETOOLONG, "path", p);
	for (char *s = buf + rl + 1;; s++) {
		int end = *s == 0;
		if (*s != '/' && !end)
			continue;
		if (end && last == PARENTS_ONLY)
			break;
		*s = 0;
		struct stat st;
		if (end && last == FILE_LAST) {
			if (lstat(buf, &st) == 0 && S_ISREG(st.st_mode))
				break;
			int fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (fd < 0)
				fail(errno, "create mountpoint", p);
			close(fd);
		} else if (mkdir(buf, 0555) == 0) {
			/* made it: the usual case in a fresh tmpfs */
		} else if (errno != EEXIST) {
			/* not writable: in a user namespace the box owns these */
			fail(errno, "mkdir", p);
		} else if (lstat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
			fail(ENOTDIR, "mountpoint", p);
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

/* bind_mount mounts src at dst in the new root. A plain bind leaves out the
 * mounts below src (less to see, one remount); in a user namespace the
 * kernel refuses that when they are locked (EINVAL), and the whole tree is
 * bound. A template mount keeps its flags (a bind copies them), so it needs
 * no remount. */
static void bind_mount(const char *src, const char *dst, int rw, int keep) {
	struct stat st;
	if (stat(src, &st) != 0)
		fail(errno, "bind source", src);
	mkdirs(dst, S_ISDIR(st.st_mode) ? DIR_LAST : FILE_LAST);
	const char *mp = inroot(dst);
	unsigned long add = MS_NOSUID | MS_NODEV | (rw ? 0 : MS_RDONLY);
	if (mount(src, mp, NULL, MS_BIND, NULL) == 0) {
		if (!keep)
			remount(mp, add);
		return;
	}
	if (errno != EINVAL || mount(src, mp, NULL, MS_BIND | MS_REC, NULL) != 0)
		fail(errno, "bind", src);
	if (!keep)
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
	mkdirs(dst, DIR_LAST);
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
		mkdirs(p, FILE_LAST);
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

#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x4
#endif

/* move_tree attaches at dst a detached mount the judge made (open_tree),
 * with its flags set already. */
static void move_tree(int fd, const char *dst) {
	struct stat st;
	if (fstat(fd, &st) != 0)
		fail(errno, "mount descriptor", dst);
	mkdirs(dst, S_ISDIR(st.st_mode) ? DIR_LAST : FILE_LAST);
	if (syscall(SYS_move_mount, fd, "", AT_FDCWD, inroot(dst), MOVE_MOUNT_F_EMPTY_PATH) != 0)
		fail(errno, "move mount", dst);
	close(fd);
}

static void run_op(const struct op *op) {
	char data[64];
	switch (op->kind) {
	case 'b': bind_mount(op->a, op->b, 0, 0); break;
	case 'w': bind_mount(op->a, op->b, 1, 0); break;
	case 'S': bind_mount(op->a, op->b, 0, 1); break;
	case 'l':
		mkdirs(op->b, PARENTS_ONLY);
		if (symlink(op->a, inroot(op->b)) != 0)
			fail(errno, "symlink", op->b);
		break;
	case 'T':
		mkdirs(op->a, DIR_LAST);
		snprintf(data, sizeof data, "size=%s,mode=1777", op->b);
		if (mount("tmpfs", inroot(op->a), "tmpfs", MS_NOSUID | MS_NODEV, data) != 0)
			fail(errno, "mount tmpfs", op->a);
		break;
	case 'P':
		mkdirs(op->a, DIR_LAST);
		if (mount("proc", inroot(op->a), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2") != 0)
			fail(errno, "mount proc", op->a);
		break;
	case 'D': make_dev(op->a); break;
	case 'F': move_tree(atoi(op->a), op->b); break;
	}
}

/* build_template runs in the zygote, once: it makes the zygote's own mount
 * namespace private and mounts, on a tmpfs at cfg.root, what every box binds
 * (the system directories read-only, a minimal /dev). */
void build_template(void) {
	unsigned long long ino = mntns_inode();
	if (ino == 0 || cfg.judge_mntns == 0 || ino == cfg.judge_mntns)
		fail(EPERM, "template outside a mount namespace of its own", NULL);
	/* nothing mounted here may propagate back to the judge's namespace */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		fail(errno, "make / private", NULL);
	cfg.zygote_mntns = ino;
	/* every box copies this namespace's mounts and detaches them again:
	 * /sys and the cgroup file systems below it are not needed (where they
	 * are locked, in a user namespace, they stay) */
	umount2("/sys", MNT_DETACH);
	if (mount("tmpfs", cfg.root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0)
		fail(errno, "mount template tmpfs", cfg.root);
	root_ops(0, cfg.nops);
}

/* root_begin starts the box's root: a fresh tmpfs at cfg.root. The mount
 * namespace is a copy of the zygote's, which is private already. It names
 * the box too. */
void root_begin(void) {
	if (!in_own_namespaces())
		fail(EPERM, "namespace mode outside fresh PID and mount namespaces", NULL);
	if (cfg.netns >= 0) {
		if (setns(cfg.netns, CLONE_NEWNET) != 0)
			fail(errno, "join network namespace", NULL);
		close(cfg.netns);
		cfg.netns = -2; /* joined: still confine the contestant */
	}
	if (mount("tmpfs", cfg.root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0)
		fail(errno, "mount root tmpfs", cfg.root);
	if (cfg.hostname && sethostname(cfg.hostname, strlen(cfg.hostname)) != 0)
		fail(errno, "sethostname", cfg.hostname);
}

/* root_ops applies cfg.ops[from:to]. */
void root_ops(int from, int to) {
	for (int i = from; i < to; i++)
		run_op(&cfg.ops[i]);
}

/* root_pivot pivots into the new root and detaches the old one. The root
 * stays writable until root_seal, for the mountpoints still to come; paths
 * are the box's own from now on. */
void root_pivot(void) {
	if (!in_own_namespaces())
		fail(EPERM, "namespace mode outside fresh PID and mount namespaces", NULL);
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
	cfg.root = "";
}

/* clean_tree removes what a run left in the directory dirfd of a tmpfs
 * (device dev): everything but other file systems mounted there and the
 * directories that lead to them, which it gives mode back, and fixed times
 * (in a user namespace the program owns them). It returns -1 if something
 * else stays, the directory has extended attributes, or once *budget
 * entries were seen: a run that left thousands of files makes its box go
 * (the kernel then frees the tmpfs) rather than the judge wait. */
static int clean_tree(int dirfd, dev_t dev, int depth, int *budget, mode_t mode) {
	static const struct timespec epoch[2] = {{0, 0}, {0, 0}};
	int ok = 0;
	ssize_t nx = flistxattr(dirfd, NULL, 0);
	if ((nx < 0 && errno != ENOTSUP) || nx > 0)
		ok = -1;
	DIR *d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return -1;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (--*budget < 0) {
			ok = -1;
			break;
		}
		struct stat st;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			ok = -1;
			continue;
		}
		if (st.st_dev != dev)
			continue; /* a mountpoint: the working directory */
		if (!S_ISDIR(st.st_mode)) {
			if (unlinkat(dirfd, e->d_name, 0) != 0)
				ok = -1;
			continue;
		}
		int sub = depth < 16 ? openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
		int below = sub >= 0 ? clean_tree(sub, dev, depth + 1, budget, 0555) : -1;
		if (*budget < 0) {
			ok = -1;
			break;
		}
		/* a directory that leads to a mountpoint stays */
		if (unlinkat(dirfd, e->d_name, AT_REMOVEDIR) != 0 && (below != 0 || (errno != ENOTEMPTY && errno != EBUSY)))
			ok = -1;
	}
	/* last: removing entries changed the times */
	if (fchmod(dirfd, mode) != 0 || futimens(dirfd, epoch) != 0)
		ok = -1;
	closedir(d);
	return ok;
}

/* root_clean empties every tmpfs of ops[0:to] (the box's /tmp) for the next
 * run of a resident box, once the last run's processes are all gone. It
 * returns -1 if it could not: the box then serves no other run. */
int root_clean(int to) {
	for (int i = 0; i < to; i++) {
		struct op *op = &cfg.ops[i];
		if (op->kind != 'T')
			continue;
		struct stat st;
		int budget = 1000;
		int fd = open(op->a, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -1;
		if (fstat(fd, &st) != 0) {
			close(fd);
			return -1;
		}
		if (clean_tree(fd, st.st_dev, 0, &budget, 01777) != 0)
			return -1;
	}
	return 0;
}

/* The run's own mounts as the first run of a resident box left them: a
 * program may not move them (rename a directory above one in /tmp) for
 * the next run. */
static struct {
	const char *dst;
	dev_t dev;
	ino_t ino;
} marks[MAXOPS];
static int nmarks;

/* root_mark notes where the mounts of ops[from:to] are. */
void root_mark(int from, int to) {
	nmarks = 0;
	for (int i = from; i < to; i++) {
		struct op *op = &cfg.ops[i];
		struct stat st;
		if (!strchr("bwSF", op->kind) || lstat(op->b, &st) != 0)
			continue;
		char *dst = strdup(op->b);
		if (!dst)
			fail(ENOMEM, "mark", NULL);
		marks[nmarks].dst = dst;
		marks[nmarks].dev = st.st_dev;
		marks[nmarks].ino = st.st_ino;
		nmarks++;
	}
}

/* root_moved reports whether a mount is no longer where root_mark saw it. */
int root_moved(void) {
	for (int i = 0; i < nmarks; i++) {
		struct stat st;
		if (lstat(marks[i].dst, &st) != 0 || st.st_dev != marks[i].dev || st.st_ino != marks[i].ino)
			return -1;
	}
	return 0;
}

/* root_refresh gives a resident box a new IPC namespace, so that no SysV
 * object or POSIX queue of the last run is left for the next. */
void root_refresh(void) {
	if (unshare(CLONE_NEWIPC) != 0)
		fail(errno, "unshare", "ipc");
}

/* root_seal makes the root read-only. */
void root_seal(void) {
	if (mount(NULL, "/", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
		fail(errno, "remount / read-only", NULL);
}

static void write_file(const char *path, const char *data) {
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fail(errno, "open", path);
	ssize_t n = write(fd, data, strlen(data));
	if (n != (ssize_t)strlen(data))
		fail(n < 0 ? errno : EIO, "write", path);
	close(fd);
}

/* map_self maps root of the box's new user namespace to root of the
 * zygote's (itself the judge's user), so that the box has a user namespace,
 * and its own RLIMIT_NPROC count, of its own. */
void map_self(void) {
	write_file("/proc/self/setgroups", "deny");
	write_file("/proc/self/uid_map", "0 0 1");
	write_file("/proc/self/gid_map", "0 0 1");
}

/* ---- confining the contestant ---- */

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
 * can open sockets behind seccomp's back), the kernel keyrings (a uid's
 * keyring outlives its processes: a box number's next run, maybe another
 * submission's, would find it), prlimit64 on another process (in a user
 * namespace the program may change its supervisor's limits, which a
 * resident box passes on to its next runs), and every call of another ABI
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
	    IS(__NR_io_uring_setup, 5, 0),
	    IS(__NR_io_uring_enter, 4, 0),
	    IS(__NR_io_uring_register, 3, 0),
	    IS(__NR_add_key, 2, 0),
	    IS(__NR_request_key, 1, 0),
	    IS(__NR_keyctl, 0, 1),
	    DENY(ENOSYS),
	    /* prlimit64 on itself only (glibc's getrlimit and setrlimit pass 0) */
	    IS(__NR_prlimit64, 0, 4),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
	    IS(0, 1, 0),
	    DENY(EPERM),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
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

/* confine is the contestant's last step before exec. */
void confine(int errfd) {
	if (cfg.dropcaps)
		drop_caps(errfd);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		child_fail(errfd, errno, "no_new_privs", NULL);
	if (cfg.netns != -1)
		landlock_scope(errfd);
	seccomp_filter(errfd);
}

#endif /* __linux__ */
