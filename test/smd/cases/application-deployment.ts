/**
 * The seed incident's custom resource, `example.com/v1 ApplicationDeployment`: the CRD a composition declares
 * (the ledger reads its markers) and the structured-merge-diff schema the API server derives from it (by hand,
 * as harness.ts does for its Widget), so both sides see one topology.
 *
 * `timers` is a granular struct (the deployment pipeline's), `entityConfigurations` a list keyed by `name`,
 * `domains` a set (the network controller's), `routeTables` a granular map.
 */
import { crdWithSpec } from '../../util';

/** The CRD, as a composition declares it. */
export const APPLICATION_DEPLOYMENT_CRD = crdWithSpec('ApplicationDeployment', {
  image: { type: 'string' },
  replicas: { type: 'integer' },
  timers: { type: 'object', properties: { publishTimeout: { type: 'string' }, retryTimeout: { type: 'string' } } },
  entityConfigurations: {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    'items': { type: 'object', properties: { name: { type: 'string' }, enabled: { type: 'boolean' }, weight: { type: 'integer' } } },
  },
  domains: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
  routeTables: { type: 'object', additionalProperties: { type: 'string' } },
});

/** The SMD type name of the custom resource. */
export const APPLICATION_DEPLOYMENT_TYPE = 'com.example.v1.ApplicationDeployment';

/** The SMD schema of the custom resource (metadata is the built-in ObjectMeta of the base schema). */
export const APPLICATION_DEPLOYMENT_SCHEMA = `types:
- name: com.example.v1.ApplicationDeployment
  map:
    fields:
    - {name: apiVersion, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
    - {name: spec, type: {namedType: com.example.v1.ApplicationDeploymentSpec}}
- name: com.example.v1.ApplicationDeploymentSpec
  map:
    fields:
    - {name: image, type: {scalar: string}}
    - {name: replicas, type: {scalar: numeric}}
    - {name: timers, type: {namedType: com.example.v1.ApplicationDeploymentTimers}}
    - name: entityConfigurations
      type: {list: {elementType: {namedType: com.example.v1.EntityConfiguration}, elementRelationship: associative, keys: [name]}}
    - name: domains
      type: {list: {elementType: {scalar: string}, elementRelationship: associative}}
    - name: routeTables
      type: {map: {elementType: {scalar: string}}}
- name: com.example.v1.ApplicationDeploymentTimers
  map:
    fields:
    - {name: publishTimeout, type: {scalar: string}}
    - {name: retryTimeout, type: {scalar: string}}
- name: com.example.v1.EntityConfiguration
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: enabled, type: {scalar: boolean}}
    - {name: weight, type: {scalar: numeric}}
`;
