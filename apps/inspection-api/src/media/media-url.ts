/**
 * The absolute URL stored files are served under (`MediaController`'s `/media/` route), for `origin` (scheme://host
 * of the request): a file field shows `<base><storage key>`, as DRF's `request.build_absolute_uri(file.url)` does.
 */
export const mediaUrlBase = (origin: string): string => `${origin}/media/`;
