/**
 * The toy schemas of structured-merge-diff's merge tests, verbatim, so ported cases run on the same types.
 *
 * Each is the YAML of one parser variable in `merge/*_test.go` at v4.1.2 (see SMD_UPSTREAM); the cases name
 * the type the upstream parser used.
 */

/** merge/key_test.go `associativeListParser` (type `type`): a list of {name, value} keyed by name. */
export const ASSOCIATIVE_LIST_SCHEMA = `types:
- name: type
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
- name: associativeList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - name
- name: myElement
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: numeric
`;

/** merge/multiple_appliers_test.go `structMultiversionParser`, its v1 types only (type `v1`). */
export const STRUCT_V1_SCHEMA = `types:
- name: v1
  map:
    fields:
      - name: struct
        type:
          namedType: struct
      - name: version
        type:
          scalar: string
- name: struct
  map:
    fields:
      - name: name
        type:
          scalar: string
      - name: scalarField_v1
        type:
          scalar: string
      - name: complexField_v1
        type:
          namedType: complex
- name: complex
  map:
    fields:
      - name: name
        type:
          scalar: string
`;

/** merge/nested_test.go `nestedTypeParser` (type `type`): lists and maps of lists and maps, sets, a struct. */
export const NESTED_TYPE_SCHEMA = `types:
- name: type
  map:
    fields:
      - name: listOfLists
        type:
          namedType: listOfLists
      - name: listOfMaps
        type:
          namedType: listOfMaps
      - name: mapOfLists
        type:
          namedType: mapOfLists
      - name: mapOfMaps
        type:
          namedType: mapOfMaps
      - name: mapOfMapsRecursive
        type:
          namedType: mapOfMapsRecursive
      - name: struct
        type:
          namedType: struct
- name: struct
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: number
- name: listOfLists
  list:
    elementType:
      map:
        fields:
        - name: name
          type:
            scalar: string
        - name: value
          type:
            namedType: list
    elementRelationship: associative
    keys:
    - name
- name: list
  list:
    elementType:
      scalar: string
    elementRelationship: associative
- name: listOfMaps
  list:
    elementType:
      map:
        fields:
        - name: name
          type:
            scalar: string
        - name: value
          type:
            namedType: map
    elementRelationship: associative
    keys:
    - name
- name: map
  map:
    elementType:
      scalar: string
    elementRelationship: associative
- name: mapOfLists
  map:
    elementType:
      namedType: list
    elementRelationship: associative
- name: mapOfMaps
  map:
    elementType:
      namedType: map
    elementRelationship: associative
- name: mapOfMapsRecursive
  map:
    elementType:
      namedType: mapOfMapsRecursive
    elementRelationship: associative
`;

/** merge/multiple_appliers_test.go `atomicMapParser` (type `v1`): a struct that is one atomic field. */
export const ATOMIC_MAP_SCHEMA = `types:
- name: v1
  map:
    fields:
      - name: atomicMap
        type:
          namedType: atomicMap
- name: atomicMap
  map:
    fields:
      - name: field1
        type:
          scalar: string
      - name: field2
        type:
          scalar: string
    elementRelationship: atomic
`;

/** merge/default_keys_test.go `portListParser` (type `v1`): ports keyed by port+protocol, protocol defaulting to TCP. */
export const PORT_LIST_SCHEMA = `types:
- name: v1
  map:
    fields:
      - name: containerPorts
        type:
          list:
            elementType:
              map:
                fields:
                - name: port
                  type:
                    scalar: numeric
                - name: protocol
                  default: "TCP"
                  type:
                    scalar: string
                - name: name
                  type:
                    scalar: string
            elementRelationship: associative
            keys:
            - port
            - protocol
`;

/** merge/default_keys_test.go `bookParser` (type `v1`): two levels of two-key lists whose keys all have defaults. */
export const BOOK_SCHEMA = `types:
- name: v1
  map:
    fields:
      - name: book
        type:
          list:
            elementType:
              map:
                fields:
                - name: chapter
                  default: 1
                  type:
                    scalar: numeric
                - name: section
                  default: "A"
                  type:
                    scalar: string
                - name: sentences
                  type:
                    list:
                      elementType:
                        map:
                          fields:
                          - name: page
                            default: 2.0
                            type:
                              scalar: numeric
                          - name: line
                            default: 3
                            type:
                              scalar: numeric
                          - name: text
                            type:
                              scalar: string
                      elementRelationship: associative
                      keys:
                      - page
                      - line
            elementRelationship: associative
            keys:
            - chapter
            - section
`;

/** merge/set_test.go `setFieldsParser` (type `sets`): a set of strings. */
export const SET_FIELDS_SCHEMA = `types:
- name: sets
  map:
    fields:
    - name: list
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative`;

/** merge/leaf_test.go `leafFieldsParser` (type `leafFields`): three scalars. */
export const LEAF_FIELDS_SCHEMA = `types:
- name: leafFields
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string
    - name: bool
      type:
        scalar: boolean`;

/**
 * The deduced type of merge/deduced_test.go (`typed.DeducedParseableType`): maps granular, lists atomic.
 * The Kubernetes schema carries the same two types, so these cases need no schema of their own.
 */
export const DEDUCED_TYPE = '__untyped_deduced_';
