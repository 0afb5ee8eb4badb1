// Starts Swagger UI on the service's own OpenAPI document (no inline script, no CDN), in the
// OpenAPI 3.0 form the bundled Swagger UI 4 reads (/openapi.json is 3.1).
window.addEventListener("DOMContentLoaded", function () {
  window.SwaggerUIBundle({ url: "/docs/openapi-3.0.json", dom_id: "#swagger-ui" });
});
