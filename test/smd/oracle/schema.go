package main

// Loads SMD schemas, rewriting the per-use `elementRelationship` form that SMD 4.1.2 cannot parse.
//
// Newer SMD versions let a field's type reference override the element relationship of the type it names:
//
//	type: {namedType: io.k8s.api.core.v1.ObjectReference, elementRelationship: separable}
//
// SMD 4.1.2's TypeRef has no such field and its schema validation refuses the key. The rewrite gives each
// such use a reference to a copy of the named type whose map (or, for a type without a map, list) carries that
// relationship, which is how newer SMD resolves the override.

import (
	"fmt"
	"sort"

	yaml "gopkg.in/yaml.v2"
	"sigs.k8s.io/structured-merge-diff/v4/schema"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

// yamlMap is a YAML mapping as gopkg.in/yaml.v2 decodes it into interface{}.
type yamlMap = map[interface{}]interface{}

// typeList is the `types:` list of one schema document, undecoded.
type typeList []yamlMap

// parseTypes reads a schema document into its undecoded type definitions.
func parseTypes(doc string) (typeList, error) {
	var root struct {
		Types []yamlMap `yaml:"types"`
	}
	if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
		return nil, fmt.Errorf("schema is not YAML: %v", err)
	}
	return typeList(root.Types), nil
}

// overrideName is the name of the copy of `named` whose element relationship is `rel`.
func overrideName(named, rel string) string {
	return named + ".__elementRelationship_" + rel
}

// rewriteOverrides replaces each per-use elementRelationship in `types` by a reference to a copy of the named
// type with that relationship, looking named types up in `types` first and then in `outer`. It returns the
// rewritten types followed by the copies it made (sorted by name).
func rewriteOverrides(types typeList, outer map[string]yamlMap) (typeList, error) {
	own := map[string]yamlMap{}
	for _, t := range types {
		if name, ok := t["name"].(string); ok {
			own[name] = t
		}
	}
	lookup := func(name string) (yamlMap, bool) {
		if t, ok := own[name]; ok {
			return t, true
		}
		t, ok := outer[name]
		return t, ok
	}
	copies := map[string]yamlMap{}
	var walkErr error

	var walk func(node interface{})
	walk = func(node interface{}) {
		switch n := node.(type) {
		case yamlMap:
			named, isRef := n["namedType"].(string)
			rel, hasRel := n["elementRelationship"].(string)
			// A type reference (it names a type) with a relationship: `list:`/`map:` atoms keep theirs.
			if isRef && hasRel {
				name := overrideName(named, rel)
				if _, done := copies[name]; !done {
					c, err := overriddenCopy(named, rel, name, lookup)
					if err != nil {
						walkErr = err
						return
					}
					copies[name] = c
					walk(c) // the copy may hold overrides of its own
				}
				delete(n, "elementRelationship")
				n["namedType"] = name
			}
			for _, v := range n {
				walk(v)
			}
		case []interface{}:
			for _, v := range n {
				walk(v)
			}
		}
	}
	for _, t := range types {
		walk(t)
	}
	if walkErr != nil {
		return nil, walkErr
	}

	names := make([]string, 0, len(copies))
	for name := range copies {
		names = append(names, name)
	}
	sort.Strings(names)
	out := append(typeList{}, types...)
	for _, name := range names {
		out = append(out, copies[name])
	}
	return out, nil
}

// overriddenCopy copies the type `named` under `name`, with element relationship `rel` on its map, or on its
// list when it has no map; a scalar cannot take a relationship.
func overriddenCopy(named, rel, name string, lookup func(string) (yamlMap, bool)) (yamlMap, error) {
	t, ok := lookup(named)
	if !ok {
		return nil, fmt.Errorf("elementRelationship %q on a reference to unknown type %q", rel, named)
	}
	c := deepCopy(t).(yamlMap)
	c["name"] = name
	atom := "map"
	if _, hasMap := c["map"]; !hasMap {
		atom = "list"
	}
	body, ok := c[atom].(yamlMap)
	if !ok {
		return nil, fmt.Errorf("elementRelationship %q on a reference to %q, which is neither a map nor a list", rel, named)
	}
	body["elementRelationship"] = rel
	return c, nil
}

func deepCopy(node interface{}) interface{} {
	switch n := node.(type) {
	case yamlMap:
		c := make(yamlMap, len(n))
		for k, v := range n {
			c[k] = deepCopy(v)
		}
		return c
	case []interface{}:
		c := make([]interface{}, len(n))
		for i, v := range n {
			c[i] = deepCopy(v)
		}
		return c
	default:
		return n
	}
}

// toParser validates rewritten types with SMD's own schema validation and builds its parser.
func toParser(types typeList) (*typed.Parser, error) {
	doc, err := yaml.Marshal(map[string]interface{}{"types": types})
	if err != nil {
		return nil, err
	}
	return typed.NewParser(typed.YAMLObject(doc))
}

// schemaSet is the base schema, parsed once, to which each case may add types.
type schemaSet struct {
	base    *typed.Parser
	byName  map[string]yamlMap
	baseErr error
}

// loadBase reads the base schema document; a failure is kept and reported by every case that needs it.
func loadBase(doc string) *schemaSet {
	s := &schemaSet{byName: map[string]yamlMap{}}
	if doc == "" {
		s.base = &typed.Parser{}
		return s
	}
	types, err := parseTypes(doc)
	if err == nil {
		types, err = rewriteOverrides(types, nil)
	}
	if err == nil {
		s.base, err = toParser(types)
	}
	if err != nil {
		s.baseErr = fmt.Errorf("base schema: %v", err)
		return s
	}
	for _, t := range types {
		if name, ok := t["name"].(string); ok {
			s.byName[name] = t
		}
	}
	return s
}

// withExtra returns a schema of the base types plus the types of `extra` (which replace base types of the
// same name).
func (s *schemaSet) withExtra(extra string) (*schema.Schema, error) {
	if s.baseErr != nil {
		return nil, s.baseErr
	}
	if extra == "" {
		return &s.base.Schema, nil
	}
	types, err := parseTypes(extra)
	if err == nil {
		types, err = rewriteOverrides(types, s.byName)
	}
	var p *typed.Parser
	if err == nil {
		p, err = toParser(types)
	}
	if err != nil {
		return nil, fmt.Errorf("case schema: %v", err)
	}
	replaced := map[string]bool{}
	for _, t := range p.Schema.Types {
		replaced[t.Name] = true
	}
	combined := &schema.Schema{}
	for _, t := range s.base.Schema.Types {
		if !replaced[t.Name] {
			combined.Types = append(combined.Types, t)
		}
	}
	combined.Types = append(combined.Types, p.Schema.Types...)
	return combined, nil
}
