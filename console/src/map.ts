/**
 * The map around a home with Leaflet (docs/adr/0010-console.md), drawn only from the API's
 * own answers: no tile server and no request to any other origin. The background is plain;
 * what gives it place are the home, the search circles and the points of each layer.
 */
import * as L from 'leaflet';

export interface MapPoint {
  lat: number;
  lng: number;
  label: string;
}

export interface MapLayer {
  name: string;
  color: string;
  points: MapPoint[];
  /** A circle drawn with the layer (the radius a count such as crime was taken over). */
  circle?: { lat: number; lng: number; radius_m: number; label: string };
}

export function drawMap(container: HTMLElement, home: MapPoint, layers: MapLayer[]): L.Map {
  const map = L.map(container, { attributionControl: false, zoomSnap: 0.25, keyboard: true });
  const bounds = L.latLngBounds([[home.lat, home.lng]]);
  L.circleMarker([home.lat, home.lng], { radius: 9, color: '#111', weight: 3, fillColor: '#ffd400', fillOpacity: 1 })
    .bindTooltip(home.label)
    .addTo(map);
  const overlays: Record<string, L.LayerGroup> = {};
  for (const layer of layers) {
    const group = L.layerGroup();
    for (const p of layer.points) {
      L.circleMarker([p.lat, p.lng], { radius: 6, color: layer.color, weight: 2, fillOpacity: 0.6 }).bindTooltip(p.label).addTo(group);
      bounds.extend([p.lat, p.lng]);
    }
    if (layer.circle) {
      const c = L.circle([layer.circle.lat, layer.circle.lng], { radius: layer.circle.radius_m, color: layer.color, weight: 1, fillOpacity: 0.05 }).bindTooltip(layer.circle.label);
      c.addTo(group);
      // A circle knows its bounds only once on a map; these are the same, from its centre.
      bounds.extend(L.latLng(layer.circle.lat, layer.circle.lng).toBounds(layer.circle.radius_m * 2));
    }
    group.addTo(map);
    overlays[`${layer.name} (${layer.points.length})`] = group;
  }
  L.control.layers(undefined, overlays, { collapsed: false }).addTo(map);
  L.control.scale({ imperial: false }).addTo(map);
  map.fitBounds(bounds.pad(0.1), { maxZoom: 17 });
  return map;
}
