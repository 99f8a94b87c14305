import { type ReactElement, type ReactNode } from 'react';
import { CreateButton, List, type ListProps, TopToolbar } from 'react-admin';
import { usePhone } from './card-list';
import { EmptyList } from './empty-list';

/**
 * A list screen: its records as a table, or as cards on phones (narrower than 600 px). Sorted by id (the API's
 * order), "No … yet" when empty, and a Create button unless other `actions` are given.
 */
export function ResponsiveList({
  cards,
  children,
  ...props
}: Omit<ListProps, 'children'> & { cards: ReactElement; children: ReactNode }) {
  const phone = usePhone();
  return (
    <List
      sort={{ field: 'id', order: 'ASC' }}
      empty={<EmptyList />}
      actions={
        <TopToolbar>
          <CreateButton />
        </TopToolbar>
      }
      {...props}
    >
      {phone ? cards : children}
    </List>
  );
}
