// Checker of Split the Sum, testlib protocol, written against the protocol
// without testlib.h:
//
//	check input output answer
//
// Exit code 0 accepts, 1 is a wrong answer, 2 a presentation error and 3 a
// failure of the checker itself; the message goes to stderr.
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

[[noreturn]] static void quit(int code, const char *prefix, const char *format, ...) {
    std::fputs(prefix, stderr);
    va_list args;
    va_start(args, format);
    std::vfprintf(stderr, format, args);
    va_end(args);
    std::fputc('\n', stderr);
    std::exit(code);
}

static bool number(const std::string &t, unsigned long long &v) {
    if (t.empty() || t.size() > 19 || (t.size() > 1 && t[0] == '0')) return false;
    v = 0;
    for (char c : t) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        v = v * 10 + static_cast<unsigned long long>(c - '0');
    }
    return true;
}

int main(int argc, char **argv) {
    if (argc != 4) quit(3, "FAIL ", "usage: %s input output answer", argv[0]);
    std::ifstream in(argv[1]), out(argv[2]);
    int t = 0;
    if (!(in >> t)) quit(3, "FAIL ", "cannot read the input %s", argv[1]);
    for (int k = 1; k <= t; k++) {
        unsigned long long n = 0, a = 0, b = 0;
        in >> n;
        std::string sa, sb;
        if (!(out >> sa >> sb)) quit(1, "wrong answer ", "case %d: the output ends early", k);
        if (!number(sa, a) || !number(sb, b)) quit(2, "wrong output format ", "case %d: want two numbers, got \"%s %s\"", k, sa.c_str(), sb.c_str());
        if (sa.find('4') != std::string::npos || sb.find('4') != std::string::npos)
            quit(1, "wrong answer ", "case %d: %s %s has the digit 4", k, sa.c_str(), sb.c_str());
        if (a > n || b != n - a) quit(1, "wrong answer ", "case %d: %s + %s is not %llu", k, sa.c_str(), sb.c_str(), n);
    }
    std::string extra;
    if (out >> extra) quit(1, "wrong answer ", "unexpected output after the last case: \"%s\"", extra.c_str());
    quit(0, "ok ", "%d cases", t);
}
