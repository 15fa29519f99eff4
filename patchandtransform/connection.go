package patchandtransform

import (
	"bytes"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ExtractConnectionDetails returns the connection details one composed
// resource contributes.
//
// composed is the object read: in the Native dialect the post-apply object,
// in the Function dialect the observed object. secret is that resource's
// connection secret data and may be nil. The details are taken in order, and
// a later detail with the same name overwrites an earlier one. The caller
// merges the maps of several templates in template order, later wins.
//
// Both dialects agree on extraction:
//   - FromValue yields the bytes of Value;
//   - FromConnectionSecretKey copies the secret's bytes for the key, and is
//     skipped when the secret holds no bytes for it (a key that may appear
//     later is not an error);
//   - FromFieldPath yields a string value as is and any other value as its
//     JSON encoding (sorted keys, HTML escaped, null as `null`), and is
//     skipped when the path cannot be read for any reason, an unparsable
//     path included.
//
// They differ on a detail that is not well formed. Native (whose front-end
// has already inferred Type and Name) fails on an empty name with
// `connection detail is missing name` and on a missing source field with
// `connection detail of type "<type>" <field> is not set`, and ignores a
// type it does not know. Function checks each detail as its validation
// does and fails with `invalid: <field error>`, for instance
// `invalid: name: Required value: name is required`. Either way an error
// discards every detail of this resource: the map returned is nil.
func ExtractConnectionDetails(d Dialect, composed *fieldpath.Paved, secret map[string][]byte, details []ConnectionDetail) (map[string][]byte, error) {
	check, err := connectionDetailChecker(d)
	if err != nil {
		return nil, err
	}
	if composed == nil {
		composed = fieldpath.Pave(map[string]any{})
	}

	out := map[string][]byte{}
	for _, cd := range details {
		if err := check(cd); err != nil {
			return nil, err
		}
		switch cd.Type {
		case ConnectionDetailTypeFromValue:
			out[cd.Name] = []byte(*cd.Value)
		case ConnectionDetailTypeFromConnectionSecretKey:
			v := secret[*cd.FromConnectionSecretKey]
			if v == nil {
				continue
			}
			out[cd.Name] = bytes.Clone(v)
		case ConnectionDetailTypeFromFieldPath:
			b, err := connectionValue(composed, *cd.FromFieldPath)
			if err != nil {
				continue
			}
			out[cd.Name] = b
		}
	}
	return out, nil
}

// connectionDetailChecker returns the dialect's check of one detail.
func connectionDetailChecker(d Dialect) (func(ConnectionDetail) error, error) {
	return byDialect(d, checkNativeConnectionDetail, checkFunctionConnectionDetail, "extract connection details")
}

// checkNativeConnectionDetail reproduces the run-time checks of Crossplane's
// native composer. Only the name and the field the type needs are checked;
// an unknown type passes and then contributes nothing.
func checkNativeConnectionDetail(cd ConnectionDetail) error {
	if cd.Name == "" {
		return errors.New("connection detail is missing name")
	}
	switch cd.Type {
	case ConnectionDetailTypeFromValue:
		if cd.Value == nil {
			return errors.Errorf("connection detail of type %q value is not set", cd.Type)
		}
	case ConnectionDetailTypeFromConnectionSecretKey:
		if cd.FromConnectionSecretKey == nil {
			return errors.Errorf("connection detail of type %q key is not set", cd.Type)
		}
	case ConnectionDetailTypeFromFieldPath:
		if cd.FromFieldPath == nil {
			return errors.Errorf("connection detail of type %q fromFieldPath is not set", cd.Type)
		}
	}
	return nil
}

// checkFunctionConnectionDetail reproduces the check
// function-patch-and-transform runs on each detail while extracting, which
// is also its input validation: type first, then name, then the field the
// type needs. Messages are Kubernetes field errors, wrapped with "invalid".
func checkFunctionConnectionDetail(cd ConnectionDetail) error {
	var ferr *field.Error
	switch {
	case cd.Type == "":
		ferr = field.Required(field.NewPath("type"), "connection detail type is required")
	case !isConnectionDetailType(cd.Type):
		ferr = field.Invalid(field.NewPath("type"), string(cd.Type), "unknown connection detail type")
	case cd.Name == "":
		ferr = field.Required(field.NewPath("name"), "name is required")
	case cd.Type == ConnectionDetailTypeFromValue && cd.Value == nil:
		ferr = field.Required(field.NewPath("value"), "value connection detail requires a value")
	case cd.Type == ConnectionDetailTypeFromConnectionSecretKey && cd.FromConnectionSecretKey == nil:
		ferr = field.Required(field.NewPath("fromConnectionSecretKey"), "from connection secret key connection detail requires a key")
	case cd.Type == ConnectionDetailTypeFromFieldPath && cd.FromFieldPath == nil:
		ferr = field.Required(field.NewPath("fromFieldPath"), "from field path connection detail requires a field path")
	}
	if ferr == nil {
		return nil
	}
	return errors.Wrap(ferr, "invalid")
}

func isConnectionDetailType(t ConnectionDetailType) bool {
	switch t {
	case ConnectionDetailTypeFromConnectionSecretKey, ConnectionDetailTypeFromFieldPath, ConnectionDetailTypeFromValue:
		return true
	}
	return false
}

// connectionValue reads a FromFieldPath detail: a string as its bytes, any
// other value as JSON. Numbers keep the type they have in the object, so an
// int64 3 and a float64 3 both encode as `3` and 1.5 as `1.5`.
func connectionValue(o *fieldpath.Paved, path string) ([]byte, error) {
	v, err := getValue(o, path)
	if err != nil {
		return nil, err
	}
	if s, ok := v.(string); ok {
		return []byte(s), nil
	}
	return kjson.Marshal(v)
}
