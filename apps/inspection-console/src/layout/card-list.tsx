import { Box, Card, CardActionArea, CardContent, CircularProgress, Typography } from '@mui/material';
import { type Theme, useMediaQuery } from '@mui/material';
import { type ReactNode } from 'react';
import {
  type RaRecord,
  RecordContextProvider,
  useCreatePath,
  useListContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

/** Phones (narrower than 600 px): lists show cards instead of tables. */
export function usePhone(): boolean {
  return useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
}

/**
 * A list page's records as cards, for phones: each card opens the record (`link`), its text wraps instead of
 * being clipped, and `media` (a photo thumbnail, itself a button) sits beside the link rather than inside it.
 */
export function CardList<T extends RaRecord>({
  children,
  media,
  link,
}: {
  children: (record: T) => ReactNode;
  media?: (record: T) => ReactNode;
  link: 'edit' | 'show';
}) {
  const { data, isPending } = useListContext<T>();
  const resource = useResourceContext() ?? '';
  const createPath = useCreatePath();
  const translate = useTranslate();
  if (isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }} role="status">
        <CircularProgress size={24} aria-label={translate('console.state.loading')} />
      </Box>
    );
  if (!data?.length)
    return (
      <Typography color="text.secondary" sx={{ p: 2 }} role="status">
        {translate('ra.navigation.no_results', { name: resource })}
      </Typography>
    );
  return (
    <Box component="ul" sx={{ display: 'grid', gap: 1, m: 0, p: 1 }} data-testid="card-list">
      {data.map((record) => {
        const side = media?.(record);
        return (
          <RecordContextProvider value={record} key={record.id}>
            <Card variant="outlined" component="li" sx={{ listStyle: 'none', display: 'flex', minWidth: 0 }}>
              {side && <Box sx={{ p: 1.5, pr: 0, flexShrink: 0 }}>{side}</Box>}
              <CardActionArea
                component={RouterLink}
                to={createPath({ resource, id: record.id, type: link })}
                sx={{ minWidth: 0 }}
              >
                <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 }, overflowWrap: 'anywhere' }}>
                  {children(record)}
                </CardContent>
              </CardActionArea>
            </Card>
          </RecordContextProvider>
        );
      })}
    </Box>
  );
}

/** A card's first line: a bold title that wraps, and an optional chip at its end. */
export function CardTitle({ children, end }: { children: ReactNode; end?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mb: 0.25 }}>
      <Typography component="span" sx={{ fontWeight: 600, flex: 1, minWidth: 0 }}>
        {children}
      </Typography>
      {end && <Box sx={{ flexShrink: 0 }}>{end}</Box>}
    </Box>
  );
}

/** A card's secondary line. */
export function CardLine({ children }: { children: ReactNode }) {
  return (
    <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
      {children}
    </Typography>
  );
}
