/** @type {import('next').NextConfig} */
const nextConfig = {
  // Static export: the whole course is files in out/, servable by any CDN or plain file server.
  output: 'export',
  // /chapters/ppo/ -> out/chapters/ppo/index.html, which every static server resolves.
  trailingSlash: true,
  images: { unoptimized: true },
  reactStrictMode: true,
  productionBrowserSourceMaps: true,
};

export default nextConfig;
