package convert_test

import (
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/convert"
)

// TestConfigurationDependencyName checks that convert names a function
// after a Configuration dependency by the rule migrate uses.
func TestConfigurationDependencyName(t *testing.T) {
	src := []byte(`apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: x
spec:
  compositeTypeRef: {apiVersion: db.acme.io/v1, kind: XPostgres}
  resources:
  - name: db
    base: {apiVersion: rds.aws.upbound.io/v1beta1, kind: Instance}
`)
	cfg := []byte(`apiVersion: meta.pkg.crossplane.io/v1
kind: Configuration
metadata:
  name: platform
spec:
  dependsOn:
  - function: localhost/org/function-patch-and-transform
    version: ">=v0.10.8"
`)
	res, err := convert.Convert(src, convert.Options{Configuration: cfg})
	if err != nil {
		t.Fatal(err)
	}
	want := "name: localhost-org-function-patch-and-transform"
	if !strings.Contains(string(res.Output), want) {
		t.Errorf("Convert with a localhost dependency: want functionRef %q in\n%s", want, res.Output)
	}
}
