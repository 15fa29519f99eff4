package v2native_test

import (
	"fmt"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// Convert writes a legacy XRD as the v2 XRD of a namespaced XR type
// (C401) without its claim (C404), whose kind the v2 type now has (C403),
// and with spec.writeConnectionSecretToRef declared (C416);
// convert.Convert refuses the v2-native target.
func ExampleConvert() {
	xrd := []byte(`apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xdatabases.example.org
spec:
  group: example.org
  names: {kind: XDatabase, plural: xdatabases}
  claimNames: {kind: Database, plural: databases}
  versions:
  - name: v1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema: {type: object}
`)
	opts := convert.Options{Target: crossplane.V2, Source: "xrd.yaml"}
	if _, err := convert.Convert(xrd, opts); convert.IsInvalidOption(err) {
		fmt.Println("convert.Convert: invalid option")
	}
	res, err := v2native.Convert(xrd, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range res.Diagnostics {
		fmt.Println(d.Code, d.Severity)
	}
	fmt.Println(res.Documents[0].Status)
	// Output:
	// convert.Convert: invalid option
	// C401 info
	// C403 warning
	// C404 info
	// C416 info
	// converted
}
