#!/usr/bin/env python2
def main(:
    pass
