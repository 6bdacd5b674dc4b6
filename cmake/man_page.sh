#!/bin/sh
# man_page.sh — a manual page written from the program's own --help, so the
# two never disagree: `man_page.sh TENGEN PAGE OUT` writes OUT (roff) and
# OUT.gz for PAGE(1): tengen, or tengen-COMMAND for `tengen COMMAND`.
#
# It reads the layout every `tengen CMD --help` shares (cli_options.c):
# "usage:" lines, paragraphs, a "options:" (or "commands:") block of
# entries, each "  TERM  text" with its further lines indented deeper.
# Paragraphs at the left margin are filled; other indented text is kept as
# it is laid out.  The date is SOURCE_DATE_EPOCH's when set (reproducible
# builds), else none.
set -eu

bin=$1 page=$2 out=$3
cmd=${page#tengen}
cmd=${cmd#-}
version=$("$bin" --version | sed 's/^tengen //')
if [ -n "$cmd" ]; then
    help=$("$bin" "$cmd" --help)
    summary=$("$bin" --help | sed -n "s/^  $cmd  *//p")
    others=$("$bin" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' | grep -vx "$cmd" || true)
else
    help=$("$bin" --help)
    summary=$(printf '%s\n' "$help" | sed -n 's/^tengen \(.*[^.]\)\.*$/\1/p' | head -n 1)
    others=$(printf '%s\n' "$help" | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
fi
[ -n "$summary" ] || { echo "man_page.sh: no summary of '$cmd' in tengen --help" >&2; exit 1; }
date=""
[ -z "${SOURCE_DATE_EPOCH:-}" ] || date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)

printf '%s\n' "$help" | awk -v page="$page" -v version="$version" -v date="$date" \
    -v summary="$summary" -v others="$others" -v main="$([ -z "$cmd" ] && echo 1 || echo 0)" \
    -v quote="'" '
# roff escapes: backslashes; a minus that begins a word (an option) is a
# minus sign, a hyphen inside a word stays a hyphen
function esc(s,    out, c, prev, i) {
    gsub(/\\/, "\\e", s)
    out = ""; prev = " "
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "-" && index(" -([|\"" quote, prev) > 0)
            c = "\\-"
        out = out c; prev = substr(s, i, 1)
    }
    return out
}
# a line of text, never read as a request
function text(s) {
    s = esc(s)
    if (substr(s, 1, 1) == "." || substr(s, 1, 1) == quote) s = "\\&" s
    return s
}
function indent(s) { match(s, /^ */); return RLENGTH }
function strip(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }

{ lines[++n] = $0 }

END {
    printf ".TH \"%s\" \"1\" \"%s\" \"tengen %s\" \"tengen manual\"\n", toupper(page), date, version
    printf ".SH NAME\n%s \\- %s\n", page, esc(summary)
    i = 1
    # SYNOPSIS: "usage: ..." and the lines under it that start with tengen
    print ".SH SYNOPSIS"
    while (i <= n && (lines[i] ~ /^usage: / || (i > 1 && lines[i] ~ /^ +tengen /))) {
        s = strip(lines[i]); sub(/^usage: /, "", s)
        print ".nf"; print text(s); print ".fi"
        i++
    }
    section = "DESCRIPTION"; printed = ""
    while (i <= n) {
        if (lines[i] == "") { i++; continue }
        # a paragraph: lines up to a blank one
        start = i
        while (i <= n && lines[i] != "") i++
        stop = i - 1
        if (lines[start] ~ /^[a-z]+:$/) {
            items(start, stop)
            section = "NOTES"
            continue
        }
        heading(section)
        flat = 1
        for (k = start; k <= stop; k++) if (indent(lines[k]) > 0) flat = 0
        print ".PP"
        if (!flat) print ".nf"
        for (k = start; k <= stop; k++) print text(flat ? strip(lines[k]) : lines[k])
        if (!flat) print ".fi"
    }
    print ".SH SEE ALSO"
    m = split(others, other, "\n")
    list = main ? "" : "\\fBtengen\\fR(1)"
    for (k = 1; k <= m; k++) if (other[k] != "") list = list (list == "" ? "" : ",\n") "\\fBtengen\\-" other[k] "\\fR(1)"
    print list
}

function heading(name) {
    if (printed != name) { print ".SH " name; printed = name }
}

# the term of an entry: options in bold, their values in italics
function term_roff(term,    words, m, k, out) {
    m = split(term, words, " ")
    out = ""
    for (k = 1; k <= m; k++)
        out = out (k > 1 ? " " : "") (words[k] ~ /^-/ ? "\\fB" : "\\fI") esc(words[k]) "\\fR"
    return out
}

# "options:" (or "commands:"): entries "  TERM  text", their text going on
# in lines indented deeper
function items(start, stop,    k, line, term, body, p) {
    name = toupper(substr(lines[start], 1, length(lines[start]) - 1))
    heading(name)
    for (k = start + 1; k <= stop; k++) {
        line = lines[k]
        if (indent(line) <= 2) {
            term = strip(line); body = ""
            p = index(term, "  ")
            if (p > 0) { body = strip(substr(term, p)); term = substr(term, 1, p - 1) }
            print ".TP"
            if (main && term ~ /^[a-z]+$/) print "\\fBtengen\\-" term "\\fR(1)"
            else print term_roff(term)
            if (body != "") print text(body)
        } else {
            print text(strip(line))
        }
    }
}
' >"$out.tmp"
mv "$out.tmp" "$out"
gzip -9n -c "$out" >"$out.gz"
