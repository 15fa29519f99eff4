// Package gitignore matches slash-separated paths against gitignore
// patterns: the .gitignore files of a tree (a Stack, deeper files winning)
// and the --include, --exclude and --allow-legacy globs of `xpmigrate
// migrate` (Globs, the same grammar without negation).
package gitignore
