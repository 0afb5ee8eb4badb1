// Starts Swagger UI on the service's own OpenAPI document (no inline script, no CDN).
window.addEventListener("DOMContentLoaded", function () {
  window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" });
});
