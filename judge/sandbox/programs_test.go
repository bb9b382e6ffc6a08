//go:build linux

package sandbox

// The test programs, honest and hostile. Every hostile one is bounded in time
// and in the number of processes it creates, so that a broken sandbox fails a
// test instead of taking the machine down. Each has a distinctive name (its
// comm in /proc), which the leftover check looks for.
var programs = map[string]string{
	// ojexit exits with the status given as its argument.
	"ojexit": `#include <stdlib.h>
int main(int argc, char **argv) { return argc > 1 ? atoi(argv[1]) : 0; }`,

	"ojabort": `#include <stdlib.h>
int main(void) { abort(); }`,

	"ojsegv": `int main(void) { volatile int *p = 0; return *p; }`,

	// ojspin spins until its own CPU clock passes argv[1] ms (default: 20 s,
	// which every test cuts short), then prints the CPU time it saw.
	"ojspin": `#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
static long cpu_ms(void) {
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000L +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
}
int main(int argc, char **argv) {
	long want = argc > 1 ? atol(argv[1]) : 20000, t;
	volatile unsigned long x = 0;
	while ((t = cpu_ms()) < want)
		for (int i = 0; i < 100000; i++) x += i;
	printf("%ld\n", t);
	return 0;
}`,

	"ojsleep": `#include <unistd.h>
int main(void) { sleep(20); return 0; }`,

	// ojtouch touches argv[1] MiB of memory, a page at a time, and prints
	// its own peak RSS in KiB.
	"ojtouch": `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
int main(int argc, char **argv) {
	size_t mib = strtoul(argv[1], 0, 10), n = mib << 20;
	char *p = malloc(n);
	if (!p) return 9;
	for (size_t i = 0; i < n; i += 4096) p[i] = 1;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%ld\n", ru.ru_maxrss);
	return p[n / 2] == 1 ? 0 : 8;
}`,

	// ojoomspin reaches its memory limit, then spins until the CPU limit
	// ends it: a child touches memory a page at a time, up to argv[1] MiB,
	// and then waits (the OOM killer, or the judge's memory poll, ends
	// it); the parent waits for the child's end and then spins forever.
	"ojoomspin": `#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
	size_t n = strtoul(argv[1], 0, 10) << 20;
	pid_t c = fork();
	if (c == 0) {
		char *p = malloc(n);
		if (!p) _exit(9);
		for (size_t i = 0; i < n; i += 4096) p[i] = 1;
		for (;;) pause();
	}
	if (c < 0) return 7;
	waitpid(c, 0, 0);
	volatile unsigned long x = 0;
	for (;;) x++;
}`,

	// ojbomb forks 12 generations (at most 4096 processes); every process
	// sleeps 3 s and exits, so it stops by itself.
	"ojbomb": `#include <unistd.h>
int main(void) {
	for (int i = 0; i < 12; i++) fork();
	sleep(3);
	return 0;
}`,

	// ojforks forks up to 100 children that sleep 1 s, prints how many forks
	// worked and waits for them.
	"ojforks": `#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
	int n = 0;
	for (int i = 0; i < 100; i++) {
		pid_t p = fork();
		if (p == 0) { sleep(1); _exit(0); }
		if (p > 0) n++;
	}
	printf("%d\n", n);
	fflush(stdout);
	while (wait(NULL) > 0) {}
	return 0;
}`,

	// ojsetsid leaves a grandchild in its own session that writes the file
	// argv[1] after 1 s, then exits at once.
	"ojsetsid": `#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
	if (fork() == 0) {
		if (fork() == 0) {
			setsid();
			sleep(1);
			int fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
			if (fd >= 0) write(fd, "escaped\n", 8);
			_exit(0);
		}
		_exit(0);
	}
	return 0;
}`,

	// ojpeek tries each path of its arguments: "r:" reads it, "d:" lists it,
	// "w:" creates it; "PPID" in a path stands for its parent's pid. It
	// prints "ok <arg>" when that fails, and otherwise "LEAK <arg>" (r:, w:)
	// or "ls <arg>: <names>" (d:).
	"ojpeek": `#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
	char buf[64], path[4096];
	for (int i = 1; i < argc; i++) {
		const char *p = argv[i] + 2, *pp = strstr(p, "PPID");
		if (pp) {
			snprintf(path, sizeof path, "%.*s%d%s", (int)(pp - p), p, (int)getppid(), pp + 4);
			p = path;
		}
		int fd;
		DIR *d;
		switch (argv[i][0]) {
		case 'r':
			fd = open(p, O_RDONLY);
			printf("%s %s\n", fd >= 0 && read(fd, buf, sizeof buf) >= 0 ? "LEAK" : "ok", argv[i]);
			break;
		case 'w':
			fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			printf("%s %s\n", fd >= 0 && write(fd, "x", 1) == 1 ? "LEAK" : "ok", argv[i]);
			break;
		case 'd':
			if (!(d = opendir(p))) {
				printf("ok %s\n", argv[i]);
				break;
			}
			printf("ls %s:", argv[i]);
			for (struct dirent *e; (e = readdir(d));)
				printf(" %s", e->d_name);
			printf("\n");
			break;
		}
	}
	return 0;
}`,

	// ojconnect connects to 127.0.0.1:argv[1] and prints "connected" or
	// "refused".
	"ojconnect": `#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
int main(int argc, char **argv) {
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	puts(s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0 ? "connected" : "refused");
	return 0;
}`,

	// ojflood writes argv[2] MiB (at most) of 'x' to fd argv[1], then "done"
	// to stdout.
	"ojflood": `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
	int fd = atoi(argv[1]);
	long mib = atol(argv[2]);
	static char buf[1 << 20];
	memset(buf, 'x', sizeof buf);
	for (long i = 0; i < mib; i++)
		if (write(fd, buf, sizeof buf) < 0) return 7;
	puts("done");
	return 0;
}`,

	// ojbigfile writes argv[1] MiB to the file "big".
	"ojbigfile": `#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
	FILE *f = fopen("big", "w");
	static char buf[1 << 20];
	for (long i = 0; f && i < atol(argv[1]); i++) fwrite(buf, 1, sizeof buf, f);
	return f ? fclose(f) : 5;
}`,

	// ojenv prints its environment, its open descriptors above 2, its
	// resource limits and its uid.
	"ojenv": `#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
extern char **environ;
static void lim(const char *name, int r) {
	struct rlimit l;
	getrlimit(r, &l);
	if (l.rlim_cur == RLIM_INFINITY) printf("%s inf\n", name);
	else printf("%s %llu\n", name, (unsigned long long)l.rlim_cur);
}
int main(void) {
	for (char **e = environ; *e; e++) printf("env %s\n", *e);
	for (int fd = 3; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0) printf("fd %d\n", fd);
	lim("cpu", RLIMIT_CPU);
	lim("fsize", RLIMIT_FSIZE);
	lim("nofile", RLIMIT_NOFILE);
	lim("core", RLIMIT_CORE);
	lim("stack", RLIMIT_STACK);
	char c;
	long n = 0;
	while (read(0, &c, 1) == 1) n++;
	printf("stdin %ld\n", n);
	return 0;
}`,

	// ojrecurse recurses argv[1] MiB deep in 1 KiB frames.
	"ojrecurse": `#include <stdlib.h>
#include <string.h>
static int down(long n) {
	volatile char frame[1024];
	memset((char *)frame, (int)n, sizeof frame);
	return n == 0 ? frame[7] : down(n - 1) + frame[3];
}
int main(int argc, char **argv) { return down(atol(argv[1]) * 1024) == 42 ? 1 : 0; }`,

	"ojtrue": `int main(void) { return 0; }`,

	// ojleave leaves what a resident box must not pass on: a child that
	// sleeps 20 s, the CPU time and memory it used and, with the argument
	// "mark", a file in /tmp and a SysV shared memory segment, with "many"
	// 1500 files in /tmp/ojmany, with "deep" 20 nested directories.
	"ojleave": `#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>
int main(int argc, char **argv) {
	if (argc > 1 && strcmp(argv[1], "mark") == 0) {
		int fd = open("/tmp/ojleave-mark", O_CREAT | O_WRONLY, 0644);
		if (fd < 0 || shmget(0x4f4a4c, 4096, IPC_CREAT | 0600) < 0) return 3;
		close(fd);
	}
	if (argc > 1 && strcmp(argv[1], "many") == 0) {
		char path[64];
		mkdir("/tmp/ojmany", 0755);
		for (int i = 0; i < 1500; i++) {
			snprintf(path, sizeof path, "/tmp/ojmany/%d", i);
			close(open(path, O_CREAT | O_WRONLY, 0644));
		}
	}
	if (argc > 1 && strcmp(argv[1], "deep") == 0) {
		char path[256] = "/tmp/ojdeep";
		for (int i = 0; i < 20; i++) {
			mkdir(path, 0755);
			strcat(path, "/d");
		}
	}
	if (fork() == 0) { sleep(20); _exit(0); }
	size_t n = 100 << 20;
	char *p = malloc(n);
	for (size_t i = 0; i < n; i += 4096) p[i] = 1;
	struct rusage ru;
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 100000; i++) x += i;
		getrusage(RUSAGE_SELF, &ru);
	} while (ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 < 200);
	return p[n / 2] == 1 ? 0 : 4;
}`,

	// ojsig leaves a child that, once the box's init has adopted it,
	// signals that init: it may (as the same user, in user-namespace mode),
	// and the signal must not end the box's next run.
	"ojsig": `#include <signal.h>
#include <unistd.h>
int main(void) {
	if (fork() == 0) {
		for (long i = 0; i < 100000000 && getppid() != 1; i++) {
		}
		for (int i = 0; i < 200000; i++) kill(1, SIGUSR1);
		_exit(0);
	}
	return 0;
}`,

	// ojmove renames the directory in /tmp that leads to its working
	// directory's mountpoint (it may, as the same user, in user-namespace
	// mode): the box's next run must still find its working directory.
	"ojmove": `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
int main(void) {
	char top[4096];
	snprintf(top, sizeof top, "%s", getenv("HOME"));
	char *s = strchr(top + 5, '/'); /* HOME is /tmp/X/...: keep /tmp/X */
	if (s) *s = 0;
	chmod(top, 0755);
	return rename(top, "/tmp/ojmoved") == 0 ? 0 : 1;
}`,

	// ojprlim lowers its box init's open-file limit to 3 (it may, as the
	// same user, in user-namespace mode, unless refused) and exits 0 if it
	// could, 1 if it was refused as it should be; with "self" it reads its
	// own limit that way, which must work.
	"ojprlim": `#define _GNU_SOURCE
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
int main(int argc, char **argv) {
	struct rlimit r = {3, 3}, old;
	if (argc > 1 && strcmp(argv[1], "self") == 0) return prlimit(0, RLIMIT_NOFILE, 0, &old) == 0 ? 0 : 2;
	return prlimit(getppid(), RLIMIT_NOFILE, &r, 0) == 0 ? 0 : 1;
}`,

	// ojchmod takes every right on /tmp and on the directory in /tmp that
	// leads to its working directory, and marks /tmp with an extended
	// attribute (it may, as the same user, in user-namespace mode).
	"ojchmod": `#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
int main(void) {
	char top[4096];
	strncpy(top, getenv("HOME"), sizeof top - 1);
	char *s = strchr(top + 5, '/');
	if (s) *s = 0;
	setxattr("/tmp", "user.oj", "x", 1, 0);
	chmod(top, 0);
	chmod("/tmp", 0);
	return 0;
}`,

	// ojkey adds a key to its user keyring and prints the key's id (a
	// keyring would outlive the run): the seccomp filter refuses it.
	"ojkey": `#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
	long id = syscall(SYS_add_key, "user", "ojkey", "secret", 6, -4 /* KEY_SPEC_USER_KEYRING */);
	printf("%ld\n", id);
	return id < 0;
}`,

	// ojlook exits with 1 if ojleave's file is in /tmp, plus 2 if its
	// shared memory segment exists, plus 4 if its many or deep files are
	// in /tmp.
	"ojlook": `#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>
int main(void) {
	return (access("/tmp/ojleave-mark", F_OK) == 0) | (shmget(0x4f4a4c, 0, 0) >= 0) << 1 |
	       (access("/tmp/ojmany", F_OK) == 0 || access("/tmp/ojdeep", F_OK) == 0) << 2;
}`,
	// ojstamp prints when its main started (CLOCK_MONOTONIC, microseconds)
	// as a step of BenchmarkRunSteps.
	"ojstamp": `#include <stdio.h>
#include <time.h>
#include <unistd.h>
int main(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); char b[64]; int n = snprintf(b, sizeof b, "%lld prog:main\n", (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000); write(1, b, n); return 0; }`,

	"ojstop": `#include <signal.h>
int main(void) { raise(SIGSTOP); return 0; }`,

	// ojsparse writes one byte 2 GiB into the file "sparse".
	"ojsparse": `#include <fcntl.h>
#include <unistd.h>
int main(void) {
	int fd = open("sparse", O_WRONLY | O_CREAT, 0644);
	lseek(fd, 2L << 30, SEEK_SET);
	return write(fd, "x", 1) == 1 ? 0 : 4;
}`,

	// "ojabstract listen NAME" waits up to 1.2 s for a connection to the
	// abstract unix socket @NAME and prints "accepted" or "alone";
	// "ojabstract connect NAME" tries for 1 s and prints "connected" or
	// "refused".
	"ojabstract": `#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
int main(int argc, char **argv) {
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	strncpy(a.sun_path + 1, argv[2], sizeof a.sun_path - 2);
	socklen_t n = sizeof a.sun_family + 1 + strlen(argv[2]);
	if (strcmp(argv[1], "connect") == 0) {
		for (int i = 0; i < 20; i++, usleep(50000)) {
			int s = socket(AF_UNIX, SOCK_STREAM, 0);
			if (connect(s, (struct sockaddr *)&a, n) == 0) {
				puts("connected");
				return 0;
			}
			close(s);
		}
		puts("refused");
		return 0;
	}
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(s, (struct sockaddr *)&a, n) != 0 || listen(s, 1) != 0) return 3;
	struct pollfd p = {.fd = s, .events = POLLIN};
	puts(poll(&p, 1, 1200) == 1 ? "accepted" : "alone");
	return 0;
}`,

	// ojvsock tries what the seccomp filter refuses: an AF_VSOCK socket
	// (which reaches a virtual machine's host) and io_uring.
	"ojvsock": `#include <stdio.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
	struct { unsigned e[30]; } params = {0};
	printf("vsock %s\n", socket(40 /* AF_VSOCK */, SOCK_STREAM, 0) >= 0 ? "open" : "refused");
	printf("io_uring %s\n", syscall(__NR_io_uring_setup, 1, &params) >= 0 ? "open" : "refused");
	printf("unix %s\n", socket(AF_UNIX, SOCK_STREAM, 0) >= 0 ? "open" : "refused");
	return 0;
}`,

	// ojstdinw tries to change its standard input.
	"ojstdinw": `#include <stdio.h>
#include <unistd.h>
int main(void) {
	int w = write(0, "changed", 7) > 0 || ftruncate(0, 0) == 0;
	puts(w ? "changed" : "refused");
	return 0;
}`,
}

// Programs in other languages, built with their own compilers.
const (
	cppSource = `#include <iostream>
#include <vector>
int main() {
	long a, b;
	std::cin >> a >> b;
	std::vector<long> v(1 << 20, a);
	std::cout << v[12345] + b << std::endl;
}
`
	goSource = `package main

import "fmt"

func main() {
	var a, b int
	fmt.Scan(&a, &b)
	s := make([]int, 1<<22)
	s[77] = a
	fmt.Println(s[77] + b)
}
`
)
