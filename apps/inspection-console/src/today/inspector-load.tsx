import {
  Box,
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { type AssigneeLoad } from '../api/resources';
import { usePhone } from '../layout/card-list';
import { statusColours } from '../layout/console-theme';

type LoadCount = 'due' | 'overdue' | 'open_actions' | 'overdue_actions';
const COUNTS: readonly LoadCount[] = ['due', 'overdue', 'open_actions', 'overdue_actions'];

/** A count, in the overdue colour and bold when it is an overdue one above zero (the words say it too). */
function Count({ name, value }: { name: LoadCount; value: number }) {
  const late = value > 0 && (name === 'overdue' || name === 'overdue_actions');
  return (
    <Box
      component="span"
      sx={late ? { color: statusColours.overdue, fontWeight: 700 } : undefined}
      data-testid={`load-${name}`}
    >
      {value}
    </Box>
  );
}

/**
 * Each person's load from `/api/due/summary/`: their plans' checks due and overdue, and their open and overdue
 * corrective actions. A table on desktop, a card per person on phones.
 */
export function InspectorLoad({ people }: { people: AssigneeLoad[] }) {
  const translate = useTranslate();
  const phone = usePhone();
  const label = (name: LoadCount) => translate(`console.today.load_${name}`);
  if (phone)
    return (
      <Box component="ul" sx={{ display: 'grid', gap: 1, m: 0, p: 0 }} data-testid="inspector-load">
        {people.map((person) => (
          <Card
            key={person.assignee}
            variant="outlined"
            component="li"
            sx={{ listStyle: 'none' }}
            data-testid="load-person"
          >
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Typography component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere', mb: 0.5 }}>
                {person.assignee_username}
              </Typography>
              <Box
                component="dl"
                sx={{ display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 2, rowGap: 0.25, m: 0 }}
              >
                {COUNTS.map((name) => (
                  <Box key={name} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {label(name)}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: 'right' }}>
                      <Count name={name} value={person[name]} />
                    </Typography>
                  </Box>
                ))}
              </Box>
            </CardContent>
          </Card>
        ))}
      </Box>
    );
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" data-testid="inspector-load">
        <TableHead>
          <TableRow>
            <TableCell component="th">{translate('console.today.load_person')}</TableCell>
            {COUNTS.map((name) => (
              <TableCell key={name} component="th" align="right">
                {label(name)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {people.map((person) => (
            <TableRow key={person.assignee} data-testid="load-person">
              <TableCell component="th" scope="row">
                {person.assignee_username}
              </TableCell>
              {COUNTS.map((name) => (
                <TableCell key={name} align="right">
                  <Count name={name} value={person[name]} />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
