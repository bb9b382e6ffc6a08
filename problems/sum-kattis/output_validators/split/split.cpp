// Output validator of Split the Sum, Kattis protocol:
//
//	split input answer feedback_dir/ < team_output
//
// Exit code 42 accepts, 43 rejects; judgemessage.txt in feedback_dir says
// why. Any pair A B of non-negative integers without the digit 4 and with
// A + B = N is right, so the answer file is not read.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

static std::string feedback;

[[noreturn]] static void verdict(int code, const std::string &msg) {
    std::ofstream f(feedback + "judgemessage.txt");
    f << msg << "\n";
    f.close();
    std::exit(code);
}

[[noreturn]] static void wrong(int k, const std::string &msg) {
    verdict(43, "case " + std::to_string(k) + ": " + msg);
}

// number reads a non-negative decimal integer below 10^19 without leading
// zeros.
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
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s input answer feedback_dir/ < output\n", argv[0]);
        return 1;
    }
    feedback = argv[3];
    std::ifstream in(argv[1]);
    int t = 0;
    if (!(in >> t)) {
        std::fprintf(stderr, "cannot read the input %s\n", argv[1]);
        return 1;
    }
    for (int k = 1; k <= t; k++) {
        unsigned long long n = 0, a = 0, b = 0;
        in >> n;
        std::string sa, sb;
        if (!(std::cin >> sa)) wrong(k, "the output ends before A");
        if (!(std::cin >> sb)) wrong(k, "the output ends before B");
        if (!number(sa, a)) wrong(k, "A = \"" + sa + "\" is not a non-negative integer");
        if (!number(sb, b)) wrong(k, "B = \"" + sb + "\" is not a non-negative integer");
        if (sa.find('4') != std::string::npos) wrong(k, "A = " + sa + " contains the digit 4");
        if (sb.find('4') != std::string::npos) wrong(k, "B = " + sb + " contains the digit 4");
        if (a > n || b != n - a)
            wrong(k, sa + " + " + sb + " is not " + std::to_string(n));
    }
    std::string extra;
    if (std::cin >> extra) verdict(43, "unexpected output after the last case: \"" + extra + "\"");
    verdict(42, std::to_string(t) + (t == 1 ? " case" : " cases"));
}
