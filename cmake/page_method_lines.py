#!/usr/bin/env python3
"""Lines of methods of every page class in ui/ (docs/ARCHITECTURE.md: "no page class is over 250 lines of methods").

A page class is a class defined in a ui/ header whose name ends in Page. Its lines of methods are the lines of its
member function definitions, from the line a definition starts on to its closing brace: those out of line in any ui/
.cpp or .h (`TrainingPage::start() { ... }`, constructors with their initialiser lists) and those written inside the
class body (`QString text() const { return m_text; }` is one line). Comments and string literals are blanked first, so
braces in them do not count.

usage: page_method_lines.py REPO              each page class, its lines and methods, biggest first
       page_method_lines.py REPO --limit N    only the classes over N, one line each as the architecture check
                                              (cmake/CheckArchitecture.cmake) reports them; exit 0 either way
"""
import os
import re
import sys


def blank(src):
    """`src` with comments and the insides of string and character literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith('//', i):
            j = src.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:j]))
            i = j
        elif src.startswith('R"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == '_')):
            m = re.match(r'R"([^(\s]*)\(', src[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = src.find(')' + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:end]))
            i = end
        elif c in '"\'' and not (c == '\'' and i > 0 and src[i - 1].isalnum()):  # 1'000'000 is a number
            j = i + 1
            while j < n and src[j] != c and src[j] != '\n':
                j += 2 if src[j] == '\\' else 1
            out.append(c + re.sub(r'[^\n]', ' ', src[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


PAIRS = {'(': ')', '{': '}', '[': ']'}


def match(s, i):
    """s[i] is an opening bracket: the index of its partner (len(s) - 1 when the text ends first)."""
    stack = [PAIRS[s[i]]]
    i += 1
    while stack and i < len(s):
        c = s[i]
        if c in PAIRS:
            stack.append(PAIRS[c])
        elif c in ')}]':
            stack.pop()
        i += 1
    return i - 1


def skip_ws(s, i):
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def body_after(s, close):
    """`close` is the ')' of a parameter list: the index of the body's '{' that follows (after qualifiers and a
    constructor's initialiser list), or None when a declaration or a call follows instead."""
    i = skip_ws(s, close + 1)
    while True:
        q = re.match(r'(const|override|noexcept|final|&&|&)\s*', s[i:])
        if not q:
            break
        i += q.end()
    if i < len(s) and s[i] == ':' and s[i:i + 2] != '::':  # a constructor's initialiser list
        i = skip_ws(s, i + 1)
        while True:
            name = re.match(r'[\w:<>]+\s*', s[i:])
            if not name or i + name.end() >= len(s) or s[i + name.end()] not in '({':
                return None
            i = skip_ws(s, match(s, i + name.end()) + 1)
            if i < len(s) and s[i] == ',':
                i = skip_ws(s, i + 1)
                continue
            break
    return i if i < len(s) and s[i] == '{' else None


def previous(s, i):
    """The character before s[i], white space skipped ('' at the start)."""
    i -= 1
    while i >= 0 and s[i].isspace():
        i -= 1
    return s[i] if i >= 0 else ''


def lines(s, start, end):
    return s.count('\n', start, end) + 1


def out_of_line(s, cls):
    """The lines of each definition of a member of `cls` outside its class (`cls::name(...) ... { ... }`)."""
    pat = re.compile(r'\b' + cls + r'::(~?\w+)\s*\(')
    pos = 0
    while True:
        m = pat.search(s, pos)
        if not m:
            return
        brace = body_after(s, match(s, m.end() - 1))
        if brace is None:
            pos = m.end()
            continue
        end = match(s, brace)
        yield lines(s, s.rfind('\n', 0, m.start()) + 1, end)
        pos = end + 1  # calls inside the body are not definitions


def in_class(s, cls):
    """The lines of each member function defined inside the body of `class cls`."""
    for m in re.finditer(r'\bclass\s+' + cls + r'\b[^;{()]*\{', s):
        start = m.end() - 1
        close = match(s, start)
        i = start + 1
        while i < close:
            c = s[i]
            if c == '(' and previous(s, i) != ']':  # a lambda's parameters are not a method
                brace = body_after(s, match(s, i))
                if brace is None:
                    i = match(s, i) + 1
                    continue
                end = match(s, brace)
                yield lines(s, s.rfind('\n', 0, i) + 1, end)
                i = end + 1
            elif c in '{[':  # a nested type, an enum, a member's initialiser
                i = match(s, i) + 1
            else:
                i += 1


def page_classes(repo):
    """{class name: (its header relative to `repo`, lines of methods, methods)} for every page class in ui/."""
    ui = os.path.join(repo, 'ui')
    files = {}
    for d, _, names in os.walk(ui):
        for f in names:
            if f.endswith(('.cpp', '.h')):
                path = os.path.join(d, f)
                with open(path, encoding='utf-8', errors='replace') as fh:
                    files[os.path.relpath(path, repo)] = blank(fh.read())
    headers = {}
    for rel, s in sorted(files.items()):
        if rel.endswith('.h'):
            for m in re.finditer(r'\bclass\s+(\w+Page)\b\s*(?:final\s*)?[:{]', s):
                headers.setdefault(m.group(1), rel)
    result = {}
    for cls, header in headers.items():
        counts = [n for s in files.values() for n in out_of_line(s, cls)] + list(in_class(files[header], cls))
        result[cls] = (header, sum(counts), len(counts))
    return result


def main(argv):
    args = [a for a in argv if not a.startswith('--')]
    limit = None
    if '--limit' in argv:
        at = argv.index('--limit')
        if at + 1 >= len(argv) or not argv[at + 1].isdigit():
            print('page_method_lines.py: give --limit a number of lines, such as --limit 250', file=sys.stderr)
            return 2
        limit = int(argv[at + 1])
        args = [a for a in args if a != argv[at + 1]]
    repo = args[0] if args else '.'
    if not os.path.isdir(os.path.join(repo, 'ui')):
        print(f'page_method_lines.py: {repo} has no ui/ folder; give the repository root', file=sys.stderr)
        return 2
    pages = sorted(page_classes(repo).items(), key=lambda kv: (-kv[1][1], kv[0]))
    for cls, (header, total, count) in pages:
        if limit is None:
            print(f'{cls:14} {total:5} lines in {count} methods ({header})')
        elif total > limit:
            print(f'{header}: {cls} has {total} lines of methods, over {limit} - move its job wiring and option '
                  f'mapping into a controller or model without widgets and its display pieces into view classes '
                  f'(docs/ARCHITECTURE.md, Thin pages)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
