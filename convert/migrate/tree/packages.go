package tree

import "strings"

// Dependency reads an entry of a Configuration's spec.dependsOn: the
// entry as an object, and its package (package, else function).
func Dependency(d any) (map[string]any, string) {
	dm, _ := d.(map[string]any)
	pkg, _ := dm["package"].(string)
	if pkg == "" {
		pkg, _ = dm["function"].(string)
	}
	return dm, pkg
}

// PackageRepo returns the last path segment of a package reference without
// tag or digest: xpkg.upbound.io/crossplane-contrib/function-x:v0.1.0 gives
// function-x.
func PackageRepo(pkg string) string {
	if i := strings.IndexByte(pkg, '@'); i >= 0 {
		pkg = pkg[:i]
	}
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i+1:]
	}
	if i := strings.IndexByte(pkg, ':'); i >= 0 {
		pkg = pkg[:i]
	}
	return pkg
}
