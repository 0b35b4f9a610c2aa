package main

// One case: a sequence of applies (or updates) by named managers to one object, run through SMD's
// merge.Updater exactly as the API server's field manager does for server-side apply.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/merge"
	"sigs.k8s.io/structured-merge-diff/v4/schema"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

type operationInput struct {
	Manager    string          `json:"manager"`
	Object     json.RawMessage `json:"object"`
	Force      bool            `json:"force"`
	APIVersion string          `json:"apiVersion"`
	Operation  string          `json:"operation"`
}

type caseInput struct {
	Name       string           `json:"name"`
	Schema     string           `json:"schema"`
	TypeName   string           `json:"typeName"`
	APIVersion string           `json:"apiVersion"`
	Applies    []operationInput `json:"applies"`
}

type conflictOutput struct {
	Manager string `json:"manager"`
	Path    string `json:"path"`
}

type operationOutput struct {
	Manager   string           `json:"manager"`
	Operation string           `json:"operation"`
	Force     bool             `json:"force"`
	Conflicts []conflictOutput `json:"conflicts"`
}

type managerOutput struct {
	APIVersion string          `json:"apiVersion"`
	Operation  string          `json:"operation"`
	Fields     []string        `json:"fields"`
	Leaves     []string        `json:"leaves"`
	FieldsV1   json.RawMessage `json:"fieldsV1"`
}

type caseOutput struct {
	Name     string                   `json:"name,omitempty"`
	Applies  []operationOutput        `json:"applies"`
	Managers map[string]managerOutput `json:"managers"`
	Object   *json.RawMessage         `json:"object,omitempty"` // only when the case ran to its end
	Error    string                   `json:"error,omitempty"`
}

// sameObjectConverter serves every API version with the same type: cases compare managers, not versions.
type sameObjectConverter struct{}

func (sameObjectConverter) Convert(v *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}

func (sameObjectConverter) IsMissingVersionError(error) bool { return false }

// decodeObject reads JSON as the API server's unstructured decoding does: integers as int64, other numbers
// as float64.
func decodeObject(raw json.RawMessage) (interface{}, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return normalizeNumbers(v), nil
}

func normalizeNumbers(v interface{}) interface{} {
	switch n := v.(type) {
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i
		}
		f, _ := n.Float64()
		return f
	case map[string]interface{}:
		for k, e := range n {
			n[k] = normalizeNumbers(e)
		}
		return n
	case []interface{}:
		for i, e := range n {
			n[i] = normalizeNumbers(e)
		}
		return n
	default:
		return v
	}
}

// runCase runs one case; every failure, a panic inside SMD included, becomes the case's error.
func runCase(schemas *schemaSet, in caseInput) (out caseOutput) {
	out = caseOutput{Name: in.Name, Applies: []operationOutput{}, Managers: map[string]managerOutput{}}
	defer func() {
		if r := recover(); r != nil {
			out.Error = fmt.Sprintf("panic in structured-merge-diff: %v", r)
		}
	}()

	sch, err := schemas.withExtra(in.Schema)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	if in.TypeName == "" {
		out.Error = "typeName is required"
		return out
	}
	typeName := in.TypeName
	pt := typed.ParseableType{Schema: sch, TypeRef: schema.TypeRef{NamedType: &typeName}}
	if !pt.IsValid() {
		out.Error = fmt.Sprintf("type %q is not in the schema", in.TypeName)
		return out
	}
	live, err := pt.FromUnstructured(nil)
	if err != nil {
		out.Error = fmt.Sprintf("empty object: %v", err)
		return out
	}

	updater := &merge.Updater{Converter: sameObjectConverter{}}
	managers := fieldpath.ManagedFields{}
	for i, op := range in.Applies {
		fail := func(format string, args ...interface{}) caseOutput {
			out.Error = fmt.Sprintf("applies[%d] (%s): %s", i, op.Manager, fmt.Sprintf(format, args...))
			return out
		}
		version := op.APIVersion
		if version == "" {
			version = in.APIVersion
		}
		if version == "" {
			version = "v1"
		}
		if op.Manager == "" {
			return fail("manager is required")
		}
		obj, err := decodeObject(op.Object)
		if err != nil {
			return fail("object is not JSON: %v", err)
		}
		tv, err := pt.FromUnstructured(obj)
		if err != nil {
			return fail("object does not match the schema: %v", err)
		}
		result := operationOutput{Manager: op.Manager, Operation: op.Operation, Force: op.Force, Conflicts: []conflictOutput{}}
		var next *typed.TypedValue
		var nextManagers fieldpath.ManagedFields
		switch op.Operation {
		case "", "apply":
			result.Operation = "apply"
			next, nextManagers, err = updater.Apply(live, tv, fieldpath.APIVersion(version), managers, op.Manager, op.Force)
		case "update":
			next, nextManagers, err = updater.Update(live, tv, fieldpath.APIVersion(version), managers, op.Manager)
		default:
			return fail("operation %q is neither \"apply\" nor \"update\"", op.Operation)
		}
		if conflicts, ok := err.(merge.Conflicts); ok {
			// Refused: like the API server, the object and its managed fields stay as they were.
			for _, c := range conflicts {
				result.Conflicts = append(result.Conflicts, conflictOutput{Manager: c.Manager, Path: c.Path.String()})
			}
			sort.Slice(result.Conflicts, func(a, b int) bool {
				ca, cb := result.Conflicts[a], result.Conflicts[b]
				if ca.Manager != cb.Manager {
					return ca.Manager < cb.Manager
				}
				return ca.Path < cb.Path
			})
			out.Applies = append(out.Applies, result)
			continue
		}
		if err != nil {
			return fail("%v", err)
		}
		managers = nextManagers
		if next != nil {
			live = next
		}
		out.Applies = append(out.Applies, result)
	}

	for name, vs := range managers {
		m, err := describeSet(vs)
		if err != nil {
			out.Error = fmt.Sprintf("manager %s: %v", name, err)
			return out
		}
		out.Managers[name] = m
	}
	object, err := json.Marshal(live.AsValue().Unstructured())
	if err != nil {
		out.Error = fmt.Sprintf("live object: %v", err)
		return out
	}
	raw := json.RawMessage(object)
	out.Object = &raw
	return out
}

func describeSet(vs fieldpath.VersionedSet) (managerOutput, error) {
	set := vs.Set()
	fieldsV1, err := set.ToJSON()
	if err != nil {
		return managerOutput{}, err
	}
	m := managerOutput{APIVersion: string(vs.APIVersion()), Operation: "update", FieldsV1: fieldsV1}
	if vs.Applied() {
		m.Operation = "apply"
	}
	m.Fields = pathStrings(set)
	m.Leaves = pathStrings(set.Leaves())
	return m, nil
}

func pathStrings(set *fieldpath.Set) []string {
	out := []string{}
	set.Iterate(func(p fieldpath.Path) { out = append(out, p.String()) })
	sort.Strings(out)
	return out
}
